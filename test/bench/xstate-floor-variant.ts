import { assign, createActor, fromPromise, setup } from 'xstate';
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
 * the way Interlude builds its own: named actors, one assign per step, a model response routed on
 * the transition that folds it in, and a resume restored at `awaiting_input`. It has no event log,
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
 * Starts an actor of the floor machine and resolves at its next stop (paused or done). A resume
 * starts restored at `awaiting_input`, as Interlude's does.
 */
function runToStop(
  machine: ReturnType<typeof floorMachine>,
  input: FloorContext,
  approved?: boolean,
): Promise<FloorContext> {
  const snapshot =
    approved === undefined ? undefined : machine.resolveState({ value: 'awaiting_input', context: input });
  const actor = createActor(machine, { input, ...(snapshot && { snapshot }) });
  return new Promise((resolve, reject) => {
    let passedStart = approved === undefined;
    actor.subscribe({
      next(snapshot) {
        if (!passedStart) {
          passedStart = snapshot.value !== 'awaiting_input';
          if (!passedStart) return;
        }
        if (snapshot.status === 'done' || snapshot.value === 'awaiting_input') {
          actor.stop();
          resolve(snapshot.context);
        }
      },
      error: reject,
    });
    actor.start();
    if (approved !== undefined) actor.send({ type: 'RESUME', approved });
  });
}

export function xstateFloorVariant(baseURL: string): CycleVariant {
  const steps = createBareSteps(baseURL);
  const machine = floorMachine(steps);
  const empty = { turn: undefined, resumed: undefined, saved: undefined, prompt: '', text: undefined };
  const name = 'floor: bare loop in XState';
  return {
    name,
    async cycle(ticketId) {
      const before = { ...steps.work.runs };
      const paused = await runToStop(machine, { ...empty, ticketId });
      const saved = JSON.stringify(paused.saved);
      const done = await runToStop(machine, { ...empty, ticketId, saved: JSON.parse(saved) }, true);
      expectBareCycle(name, steps.work, before, { prompt: paused.prompt, text: done.text ?? '' });
    },
    async close() {},
  };
}
