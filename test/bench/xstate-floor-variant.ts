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
 * The bare loop driven by an XState machine of the generation machine's shape (DESIGN §4: an
 * `init` choice, `running` with `calling_model` → `routing` → `running_tools`, `awaiting_input`,
 * `resuming`, `done`), with the same named actors and one assign per step. It has no event log,
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
  }).createMachine({
    id: 'floor',
    context: ({ input }) => input,
    initial: 'init',
    states: {
      init: {
        always: [
          { guard: ({ context }) => context.saved !== undefined, target: 'awaiting_input' },
          { target: 'running' },
        ],
      },
      running: {
        initial: 'calling_model',
        states: {
          calling_model: {
            invoke: {
              src: 'callModel',
              input: ({ context }) => context,
              onDone: {
                target: 'routing',
                actions: assign(({ event }) => ({ turn: event.output.turn, text: event.output.text })),
              },
            },
          },
          routing: {
            always: [
              { guard: ({ context }) => context.text === undefined, target: 'running_tools' },
              { target: '#floor.done' },
            ],
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

/** Starts an actor of the floor machine and resolves at its next stop (paused or done). */
function runToStop(
  machine: ReturnType<typeof floorMachine>,
  input: FloorContext,
  approved?: boolean,
): Promise<FloorContext> {
  const actor = createActor(machine, { input });
  return new Promise((resolve, reject) => {
    let passedStart = approved === undefined;
    actor.subscribe({
      next(snapshot) {
        if (!passedStart) {
          passedStart = snapshot.value !== 'awaiting_input' && snapshot.value !== 'init';
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
