import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { ModelResponse } from '../provider/provider-adapter.js';
import { type GenerationContext, startingContext } from './generation-context.js';
import { generationMachine, type RunToolsInput, type RunToolsOutput } from './generation-machine.js';

const askCall = { id: 'c1', name: 'issue_refund', arguments: { amount: 30 } };
const noTurnState = { approvalToolCalls: [], approvedToolCalls: [], mcpToolCalls: [], delegations: {} };

const freshContext: GenerationContext = startingContext({
  identity: {
    agent: 'support',
    generationId: 'gen_1',
    actionName: 'handle',
    service: 'scripted',
    provider: 'scripted',
    model: 'scripted-1',
  },
  limits: { maxToolTurns: 25, maxContinuations: 0 },
  messages: [{ role: 'user', content: 'Refund order 42' }],
  toolChoice: undefined,
});

describe('the generation machine, its actors replaced with provide()', () => {
  it('pauses on a question, resumes on RESUME, and keeps its context under 20 keys throughout', async () => {
    const modelAnswers: ModelResponse[] = [
      {
        messages: [{ role: 'assistant', content: 'refund' }],
        toolCalls: [askCall],
        text: '',
        finishReason: 'tool-calls',
      },
      { messages: [{ role: 'assistant', content: 'Refunded' }], toolCalls: [], text: 'Refunded', finishReason: 'stop' },
    ];
    const toolRuns: RunToolsInput[] = [];
    const published: string[] = [];
    const machine = generationMachine.provide({
      actors: {
        callModel: fromPromise<ModelResponse, GenerationContext>(async () => modelAnswers.shift() as ModelResponse),
        runTools: fromPromise<RunToolsOutput, RunToolsInput>(async ({ input }): Promise<RunToolsOutput> => {
          toolRuns.push(input);
          if (!input.resuming) {
            return {
              completed: {},
              inputRequests: [
                { kind: 'confirm', prompt: 'Refund $30?', tool_call_id: 'c1', tool_name: 'issue_refund' },
              ],
              ...noTurnState,
              resultMessages: [],
            };
          }
          return {
            completed: { c1: { tool_name: 'issue_refund', result: 'ok', is_error: false } },
            inputRequests: [],
            ...noTurnState,
            resultMessages: [{ role: 'tool', content: 'ok' }],
          };
        }),
      },
      actions: { publish: (_, params) => published.push(params.event) },
    });
    // XState copies the context with Object.assign on every assign; from 20 keys on, V8 keeps such
    // a copy as a slow dictionary (see GenerationContext).
    const keyCounts: number[] = [];
    const actor = createActor(machine, { input: freshContext });
    actor.subscribe((snapshot) => keyCounts.push(Object.keys(snapshot.context).length));
    actor.start();
    await waitFor(actor, (value) => value === 'awaiting_input');
    expect(actor.getSnapshot().context.inputRequests).toHaveLength(1);

    actor.send({ type: 'RESUME', answers: new Map([['c1', true]]) });
    const done = await waitFor(actor, (_value, status) => status === 'done');

    expect(done.value).toBe('done');
    expect(done.context.lastResponse?.text).toBe('Refunded');
    expect(toolRuns.map((run) => [run.resuming, run.answers.get('c1')])).toEqual([
      [false, undefined],
      [true, true],
    ]);
    expect(published).toEqual([
      'started',
      'model_responded',
      'input_requested',
      'resumed',
      'model_responded',
      'completed',
    ]);
    expect(keyCounts.length).toBeGreaterThan(3);
    expect(Math.max(...keyCounts)).toBeLessThan(20);
  });
});

describe('a resume restored at awaiting_input', () => {
  it('takes the conversation from its RESUME event, so the restored snapshot need not hold it', async () => {
    const conversation = [
      { role: 'user', content: 'Refund order 42' },
      { role: 'assistant', content: 'refund' },
    ];
    const seenByModel: unknown[][] = [];
    const machine = generationMachine.provide({
      actors: {
        callModel: fromPromise<ModelResponse, GenerationContext>(async ({ input }) => {
          seenByModel.push(input.messages);
          return {
            messages: [{ role: 'assistant', content: 'Done' }],
            toolCalls: [],
            text: 'Done',
            finishReason: 'stop',
          };
        }),
        runTools: fromPromise<RunToolsOutput, RunToolsInput>(async () => ({
          completed: { c1: { tool_name: 'issue_refund', result: 'ok', is_error: false } },
          inputRequests: [],
          ...noTurnState,
          resultMessages: [{ role: 'tool', content: 'ok' }],
        })),
      },
      actions: { publish: () => {} },
    });
    const paused: GenerationContext = {
      ...freshContext,
      toolTurns: 1,
      turnCalls: [askCall],
      toolCallTurnSize: 1,
      inputRequests: [{ kind: 'confirm', prompt: 'Refund $30?', tool_call_id: 'c1', tool_name: 'issue_refund' }],
    };
    const snapshot = machine.resolveState({ value: 'awaiting_input', context: { ...paused, messages: [] } });
    const actor = createActor(machine, { input: paused, snapshot });
    actor.start();
    actor.send({ type: 'RESUME', answers: new Map([['c1', true]]), messages: conversation });
    const done = await waitFor(actor, (_value, status) => status === 'done');

    expect(seenByModel).toEqual([[...conversation, { role: 'tool', content: 'ok' }]]);
    expect(done.context.messages).toEqual([
      ...conversation,
      { role: 'tool', content: 'ok' },
      { role: 'assistant', content: 'Done' },
    ]);
  });
});

function waitFor(
  actor: ReturnType<typeof createActor<typeof generationMachine>>,
  done: (value: unknown, status: string) => boolean,
) {
  return new Promise<ReturnType<typeof actor.getSnapshot>>((resolve, reject) => {
    const check = () => {
      const snapshot = actor.getSnapshot();
      if (done(snapshot.value, snapshot.status)) {
        subscription.unsubscribe();
        resolve(snapshot);
      }
    };
    const subscription = actor.subscribe({ next: check, error: reject });
    check();
  });
}
