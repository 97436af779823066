import { assign, fromPromise, setup } from 'xstate';
import type { EventName } from '../bus/events.js';
import type { ModelResponse, ProviderMessage } from '../provider/provider-adapter.js';
import type { DispatchResult } from '../tool/dispatch-tool-calls.js';
import { applyModelResponse, decide, type GenerationContext } from './generation-context.js';

/** Sent to a paused generation with the person's answers (already validated). */
export interface ResumeEvent {
  type: 'RESUME';
  answers: ReadonlyMap<string, unknown>;
  /**
   * The conversation, when the paused snapshot was restored without it: XState's restore walks
   * every object of a restored context, which for a long conversation cost milliseconds a resume.
   */
  messages?: ProviderMessage[];
}

export interface RunToolsInput {
  context: GenerationContext;
  answers: ReadonlyMap<string, unknown>;
  resuming: boolean;
}

export interface RunToolsOutput extends DispatchResult {
  /** The messages carrying the turn's results back, when nothing is left waiting. */
  resultMessages: ProviderMessage[];
}

const noAnswers: ReadonlyMap<string, unknown> = new Map();

/** What every model response does, whichever way it routes: fold it in (marking it reported), report it. */
const modelResponded = ['foldResponse', { type: 'publish', params: { event: 'model_responded' } }] as const;

/** A tool turn that asked the person something: keep what ran and what waits, then announce it. */
const pausesForInput = ['foldPause', { type: 'publish', params: { event: 'input_requested' } }] as const;

/**
 * The generation machine (ARCHITECTURE.md, "The generation machine"):
 *
 *   running ──(tool asked / approval needed)──▶ awaiting_input ──RESUME──▶ resuming ──▶ running ──▶ done
 *      │                                                                     └─(asked again)─▶ awaiting_input
 *      └──(model failed, tool budget spent…)──▶ done | failed
 *
 * Every side effect is a named actor (`callModel`, `runTools`) or the `publish` action, which a
 * generation provides with `machine.provide()`; tests swap them the same way. The machine itself
 * only folds results into its context and routes.
 */
export const generationMachine = setup({
  types: {
    context: {} as GenerationContext,
    input: {} as GenerationContext,
    events: {} as ResumeEvent,
  },
  actors: {
    callModel: fromPromise<ModelResponse, GenerationContext>(async () => {
      throw new Error('callModel is provided by the generation');
    }),
    runTools: fromPromise<RunToolsOutput, RunToolsInput>(async () => {
      throw new Error('runTools is provided by the generation');
    }),
  },
  actions: {
    publish: (_, _params: { event: EventName }) => {},
    foldResponse: assign(({ context, event }) =>
      applyModelResponse(context, (event as unknown as { output: ModelResponse }).output),
    ),
    foldPause: assign(({ event }) => pausedTurn((event as unknown as { output: RunToolsOutput }).output)),
    foldTurn: assign(({ context, event }) =>
      finishedTurn(context, (event as unknown as { output: RunToolsOutput }).output),
    ),
    // The actors scrub errors before throwing them, so what lands in the context is safe to publish.
    restoreMessages: assign({
      messages: ({ context, event }) => (event as Partial<ResumeEvent>).messages ?? context.messages,
    }),
    recordError: assign({ error: ({ event }) => describeError((event as { error?: unknown }).error) }),
  },
  guards: {
    continues: ({ context }, output: ModelResponse) => decide(context, output) === 'continue',
    runsTools: ({ context }, output: ModelResponse) => decide(context, output) === 'tools',
    exceedsToolTurns: ({ context }, output: ModelResponse) => decide(context, output) === 'exceeded',
    asked: (_, output: RunToolsOutput) => output.inputRequests.length > 0,
  },
}).createMachine({
  id: 'generation',
  context: ({ input }) => input,
  // A fresh run starts here; a resume starts from a snapshot restored at `awaiting_input`
  // (`resolveState`), so neither takes an extra eventless step to find its first state.
  initial: 'running',
  entry: { type: 'publish', params: { event: 'started' } },
  states: {
    running: {
      initial: 'calling_model',
      states: {
        calling_model: {
          invoke: {
            src: 'callModel',
            input: ({ context }) => context,
            // The response is routed as it is folded in: one transition per model call.
            onDone: [
              {
                guard: { type: 'continues', params: ({ event }) => event.output },
                target: 'calling_model',
                reenter: true,
                actions: modelResponded,
              },
              {
                guard: { type: 'runsTools', params: ({ event }) => event.output },
                target: 'running_tools',
                actions: modelResponded,
              },
              {
                guard: { type: 'exceedsToolTurns', params: ({ event }) => event.output },
                target: '#generation.done',
                actions: [...modelResponded, { type: 'publish', params: { event: 'tool_turns_exceeded' } }],
              },
              { target: '#generation.done', actions: modelResponded },
            ],
            onError: { target: '#generation.failed', actions: 'recordError' },
          },
        },
        running_tools: {
          invoke: {
            src: 'runTools',
            input: ({ context }) => ({ context, answers: noAnswers, resuming: false }),
            onDone: [
              {
                guard: { type: 'asked', params: ({ event }) => event.output },
                target: '#generation.awaiting_input',
                actions: pausesForInput,
              },
              { target: 'calling_model', actions: 'foldTurn' },
            ],
            onError: { target: '#generation.failed', actions: 'recordError' },
          },
        },
      },
    },
    awaiting_input: {
      on: {
        RESUME: {
          target: 'resuming',
          actions: ['restoreMessages', { type: 'publish', params: { event: 'resumed' } }],
        },
      },
    },
    resuming: {
      invoke: {
        src: 'runTools',
        input: ({ context, event }) => ({ context, answers: (event as ResumeEvent).answers, resuming: true }),
        onDone: [
          {
            guard: { type: 'asked', params: ({ event }) => event.output },
            target: 'awaiting_input',
            actions: pausesForInput,
          },
          { target: 'running', actions: 'foldTurn' },
        ],
        onError: { target: 'failed', actions: 'recordError' },
      },
    },
    done: {
      type: 'final',
      entry: { type: 'publish', params: { event: 'completed' } },
    },
    failed: {
      type: 'final',
      entry: { type: 'publish', params: { event: 'failed' } },
    },
  },
});

function pausedTurn(output: RunToolsOutput): Partial<GenerationContext> {
  return {
    completedResults: output.completed,
    inputRequests: output.inputRequests,
    approvalToolCalls: output.approvalToolCalls,
    approvedToolCalls: output.approvedToolCalls,
    mcpToolCalls: output.mcpToolCalls,
    delegations: output.delegations,
  };
}

function finishedTurn(context: GenerationContext, output: RunToolsOutput): Partial<GenerationContext> {
  return {
    // Unreported until the next model response's event carries them (`reportedTo` stays).
    messages: context.messages.concat(output.resultMessages),
    completedResults: output.completed,
    inputRequests: [],
    approvalToolCalls: [],
    approvedToolCalls: output.approvedToolCalls,
    mcpToolCalls: [],
    delegations: {},
  };
}

function describeError(error: unknown): GenerationContext['error'] {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const code = (error as { code?: unknown }).code;
  return { name: error.name, message: error.message, ...(typeof code === 'string' && { code }) };
}

export type GenerationMachine = typeof generationMachine;
