import { assign, fromPromise, setup } from 'xstate';
// The driver is core's, not public API: the floor runs on exactly what Interlude runs on.
import { createMachineDriver, type MachineDriver } from '../../packages/core/src/generation/machine-driver.js';
import { type BareResumedTurn, type BareTurn, createBareSteps } from './bare-sdk-loop.js';
import type { CycleVariant } from './cycle-variants.js';
import { expectBareCycle } from './expect-bare-cycle.js';

interface FloorContext {
  ticketId: number;
  turn: BareTurn | undefined;
  resumed: BareResumedTurn | undefined;
  saved: string | undefined;
  prompt: string;
  text: string | undefined;
}

type FloorEvent = { type: 'RESUME'; approved: boolean };

/**
 * The bare loop driven by an XState machine of the generation machine's shape (see ARCHITECTURE.md:
 * `running` with `calling_model` and `running_tools`, `awaiting_input`, `resuming`, `done`), built
 * and run the way Interlude builds and runs its own: named actors, one assign per step, a model
 * response routed on the transition that folds it in, a resume restored at `awaiting_input`, all
 * driven by core's machine driver. It has no event log,
 * no checkpoint, no validation: what is left of the design's cost when Interlude's own code is
 * taken away. A floor to read the goals against, not a goal.
 */
function floorMachine(steps: ReturnType<typeof createBareSteps>) {
  return setup({
    types: { context: {} as FloorContext, input: {} as FloorContext, events: {} as FloorEvent },
    actors: {
      callModel: fromPromise<{ turn?: BareTurn; text?: string }, FloorContext>(async ({ input }) =>
        input.resumed === undefined
          ? { turn: await steps.firstCall(input.ticketId) }
          : { text: await steps.finalCall(input.resumed) },
      ),
      runTools: fromPromise<{ saved: string; prompt: string }, BareTurn>(async ({ input }) => steps.pauseTools(input)),
      resumeTools: fromPromise<BareResumedTurn, { saved: string; approved: boolean }>(async ({ input }) =>
        steps.resumeTools(input.saved, input.approved),
      ),
    },
    actions: {
      foldResponse: assign(({ event }) => {
        const output = (event as unknown as { output: { turn?: BareTurn; text?: string } }).output;
        return { turn: output.turn, text: output.text };
      }),
    },
  }).createMachine({
    id: 'floor',
    context: ({ input }) => input,
    initial: 'running',
    states: {
      running: {
        initial: 'calling_model',
        states: {
          calling_model: {
            invoke: {
              src: 'callModel',
              input: ({ context }) => context,
              onDone: [
                {
                  guard: ({ event }) => event.output.text === undefined,
                  target: 'running_tools',
                  actions: 'foldResponse',
                },
                { target: '#floor.done', actions: 'foldResponse' },
              ],
            },
          },
          running_tools: {
            invoke: {
              src: 'runTools',
              input: ({ context }) => context.turn as BareTurn,
              onDone: { target: '#floor.awaiting_input', actions: assign(({ event }) => event.output) },
            },
          },
        },
      },
      awaiting_input: { on: { RESUME: 'resuming' } },
      resuming: {
        invoke: {
          src: 'resumeTools',
          input: ({ context, event }) => ({
            saved: context.saved as string,
            approved: (event as FloorEvent).approved,
          }),
          onDone: { target: 'running', actions: assign(({ event }) => ({ resumed: event.output })) },
        },
      },
      done: { type: 'final' },
    },
  });
}

/**
 * Runs the floor machine to its next stop (paused or done) with the driver Interlude's own
 * machine runs on (`machine.transition()` on one reused actor scope, no actor per run). A resume
 * starts restored at `awaiting_input`, as Interlude's does.
 */
function runToStop(
  machine: ReturnType<typeof floorMachine>,
  driver: MachineDriver<undefined, ReturnType<typeof floorMachine>>,
  input: FloorContext,
  approved?: boolean,
): Promise<FloorContext> {
  const isPaused = (snapshot: { value: unknown }) => snapshot.value === 'awaiting_input';
  const stopped =
    approved === undefined
      ? driver.start(undefined, input, isPaused)
      : driver.send(
          undefined,
          machine.resolveState({ value: 'awaiting_input', context: input }),
          { type: 'RESUME', approved },
          isPaused,
        );
  return stopped.then((snapshot) => snapshot.context);
}

export function xstateFloorVariant(baseURL: string): CycleVariant {
  const steps = createBareSteps(baseURL);
  const machine = floorMachine(steps);
  const driver = createMachineDriver<undefined, typeof machine>(machine, {
    actors: {
      callModel: async (_scope: undefined, input: FloorContext) =>
        input.resumed === undefined
          ? { turn: await steps.firstCall(input.ticketId) }
          : { text: await steps.finalCall(input.resumed) },
      runTools: async (_scope: undefined, input: BareTurn) => steps.pauseTools(input),
      resumeTools: async (_scope: undefined, input: { saved: string; approved: boolean }) =>
        steps.resumeTools(input.saved, input.approved),
    },
    actions: {},
  });
  const empty = { turn: undefined, resumed: undefined, saved: undefined, prompt: '', text: undefined };
  const name = 'floor: bare loop in XState';
  return {
    name,
    async cycle(ticketId) {
      const before = { ...steps.work.runs };
      const paused = await runToStop(machine, driver, { ...empty, ticketId });
      const saved = JSON.stringify(paused.saved);
      const done = await runToStop(machine, driver, { ...empty, ticketId, saved: JSON.parse(saved) }, true);
      expectBareCycle(name, steps.work, before, { prompt: paused.prompt, text: done.text ?? '' });
    },
    async close() {},
  };
}
