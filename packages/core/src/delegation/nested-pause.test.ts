import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { InputRequestInfo } from '../agent/agent-types.js';
import { defineAgent } from '../agent/define-agent.js';
import type { GenerationEvent } from '../bus/events.js';
import { ResumeError } from '../errors/resume-error.js';
import { InputRequest } from '../input-request/input-request.js';
import type { ProviderAdapter } from '../provider/provider-adapter.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { type JobOutcome, runJob } from '../runtime/run-job.js';
import type { Runtime } from '../runtime/runtime.js';
import { expectRebuildMatches, throughJson } from '../test-support/harness.js';
import { type RecordedModelRequest, type ScriptedReply, scriptedProvider } from '../testing/scripted-provider.js';
import { tool } from '../tool/tool.js';
import { delegate } from './delegate.js';

const PIN = 'pin-4321-secret';

/** Whether the conversation already holds the result of `callId`. */
const hasResult = (request: RecordedModelRequest, callId: string) =>
  JSON.stringify(request.messages).includes(`"tool_use_id":"${callId}"`);

/** A model that calls `calls` once, then ends with `text`: any process can take any step. */
function model(calls: ScriptedReply['toolCalls'], text: (request: RecordedModelRequest) => string, name?: string) {
  const scripted = scriptedProvider(
    Array.from({ length: 50 }, () => (request: RecordedModelRequest) => {
      const last = calls?.at(-1);
      if (last !== undefined && hasResult(request, last.id)) return { text: text(request) };
      return { toolCalls: calls ?? [] };
    }),
  );
  // Another provider than its caller's: each level's checkpoint names its own.
  return name === undefined ? scripted : ({ ...scripted, provider: name, model: `${name}-1` } as ProviderAdapter);
}

/**
 * triage → refunds → payments, each delegating with `onExceeded: 'pause'`; payments asks before it
 * pays (a confirm, or a secret PIN). Counts every tool body, at every level.
 */
function supportTree(
  runtime: Runtime,
  options: { secret?: boolean; twice?: boolean; askAgain?: boolean; expiresIn?: number } = {},
) {
  const runs = { pay_out: 0, lookup_order: 0, add_note: 0, pins: [] as unknown[] };
  const payOut = tool({
    name: 'pay_out',
    description: 'Pay money out',
    input: z.object({ amount: z.number() }),
    run({ amount }, ctx) {
      if (ctx.answer === undefined) {
        if (options.secret) return InputRequest.secret('Card PIN?');
        const expiry = options.expiresIn === undefined ? {} : { expiresIn: options.expiresIn };
        return InputRequest.confirm(`Pay out $${amount}?`, expiry);
      }
      if (options.askAgain && ctx.answer === true) return InputRequest.text('Reference for the payout?');
      runs.pay_out += 1;
      if (options.secret) runs.pins.push(ctx.answer);
      return { paid: amount, ...(options.secret && { pin: ctx.answer }) };
    },
  });
  const payments = defineAgent({
    name: 'payments',
    runtime,
    // A model that repeats what its tool said: the PIN, when the tool leaks it.
    provider: model(
      [{ id: 'call_payout', name: 'pay_out', arguments: { amount: 30 } }],
      (request) => `Paid. ${JSON.stringify(request.messages.at(-1))}${options.secret ? ` ${PIN}` : ''}`,
      'other.scripted',
    ),
    actions: { pay: ({ amount }: { amount: number }) => ({ message: `Pay $${amount}`, tools: [payOut] }) },
  });
  const lookupOrder = tool({
    name: 'lookup_order',
    description: 'Find an order',
    input: z.object({ order_id: z.number() }),
    run: ({ order_id }) => {
      runs.lookup_order += 1;
      return { order_id, total: 120 };
    },
  });
  const refunds = defineAgent({
    name: 'refunds',
    runtime,
    provider: model(
      [
        { id: 'call_lookup', name: 'lookup_order', arguments: { order_id: 42 } },
        { id: 'call_pay', name: 'payments_pay', arguments: { amount: 30 } },
      ],
      (request) => `Refunded $30 on order 42. ${JSON.stringify(request.messages.at(-1))}`,
    ),
    actions: {
      handle: () => ({
        message: 'Refund order 42',
        tools: [
          lookupOrder,
          delegate(payments, 'pay', {
            description: 'Pay out',
            input: z.object({ amount: z.number() }),
            onExceeded: 'pause',
          }),
        ],
      }),
    },
  });
  const addNote = tool({
    name: 'add_note',
    description: 'Note on the ticket',
    input: z.object({}),
    run: () => {
      runs.add_note += 1;
      return { noted: true };
    },
  });
  const refundCalls = options.twice
    ? [
        { id: 'call_r1', name: 'refunds_handle', arguments: {} },
        { id: 'call_r2', name: 'refunds_handle', arguments: {} },
      ]
    : [{ id: 'call_refunds', name: 'refunds_handle', arguments: {} }];
  const asked: { requests: InputRequest[]; info: InputRequestInfo }[] = [];
  const triage = defineAgent({
    name: 'triage',
    runtime,
    provider: model([{ id: 'call_note', name: 'add_note', arguments: {} }, ...refundCalls], (request) =>
      hasResult(request, 'call_note') ? `Triage done: ${JSON.stringify(request.messages.at(-1))}` : 'no note',
    ),
    actions: {
      handle: () => ({
        message: 'Triage ticket 42',
        tools: [addNote, delegate(refunds, 'handle', { description: 'Ask refunds', onExceeded: 'pause' })],
      }),
    },
    onInputRequest: (requests, info) => {
      asked.push({ requests, info });
    },
  });
  return { triage, refunds, payments, runs, asked };
}

const DEEP_ID = 'call_refunds/call_pay/call_payout';

async function allEvents(runtime: Runtime, ...ids: string[]): Promise<GenerationEvent[]> {
  return (await Promise.all(ids.map((id) => runtime.bus.events(id)))).flat();
}

describe("nested pauses: delegate(…, { onExceeded: 'pause' })", () => {
  it('a question three levels down pauses the root, with its path, and one answer finishes the tree', async () => {
    const runtime = createRuntime();
    const tree = supportTree(runtime);
    const paused = await tree.triage.handle().generateNow();

    expect(paused.status).toBe('awaiting_input');
    expect(paused.inputRequests.map((request) => request.toJSON())).toEqual([
      {
        kind: 'confirm',
        prompt: 'Pay out $30?',
        tool_call_id: DEEP_ID,
        tool_name: 'pay_out',
        arguments: { amount: 30 },
        path: [
          { tool_call_id: 'call_refunds', tool_name: 'refunds_handle', agent: 'refunds', action: 'handle' },
          { tool_call_id: 'call_pay', tool_name: 'payments_pay', agent: 'payments', action: 'pay' },
        ],
      },
    ]);
    const refundsCheckpoint = paused.checkpoint?.delegations?.['call_refunds'];
    expect(refundsCheckpoint?.agent).toBe('refunds');
    expect(refundsCheckpoint?.delegations?.['call_pay']?.agent).toBe('payments');
    expect(refundsCheckpoint?.delegations?.['call_pay']?.provider).toBe('other.scripted');
    expect(paused.checkpoint?.completed_results).toMatchObject({ call_note: { result: { noted: true } } });
    await expectRebuildMatches(runtime, paused);
    // The root announces the question, lists it and tells its callbacks; the delegated agents do not.
    expect(
      (await runtime.pending()).map((entry) => [entry.agent, entry.inputRequests.map((r) => r.toolCallId)]),
    ).toEqual([['triage', [DEEP_ID]]]);
    expect(tree.asked.map(({ requests, info }) => [info.agent, requests.map((r) => r.toolCallId)])).toEqual([
      ['triage', [DEEP_ID]],
    ]);
    expect(tree.runs).toMatchObject({ pay_out: 0, lookup_order: 1, add_note: 1 });

    const done = await runtime.answer(paused.generationId, { [DEEP_ID]: true });
    expect(done.status).toBe('completed');
    expect(done.text).toContain('Triage done');
    expect(done.text).toContain('Refunded $30 on order 42.');
    expect(tree.runs).toMatchObject({ pay_out: 1, lookup_order: 1, add_note: 1 });
    expect(await runtime.pending()).toEqual([]);
    await runtime.close();
  });

  it('resumes from JSON in a fresh runtime with the same key (another process), each body once', async () => {
    const first = createRuntime({ checkpointKey: 'tree-key-0123456789abcdef0123456789' });
    const paused = await supportTree(first).triage.handle().generateNow();
    await first.close();

    const second = createRuntime({ checkpointKey: 'tree-key-0123456789abcdef0123456789' });
    const tree = supportTree(second);
    const done = await tree.triage
      .handle()
      .resumeNow({ checkpoint: throughJson(paused.checkpoint), answers: { [DEEP_ID]: true } });
    expect(done.status).toBe('completed');
    expect(done.text).toContain('Refunded $30 on order 42.');
    // In this process only the answered call ran: the lookup and the note ran in the first one.
    expect(tree.runs).toMatchObject({ pay_out: 1, lookup_order: 0, add_note: 0 });
    await second.close();
  });

  it('resumes through a worker (answerLater), and a second resume of the same checkpoint is refused', async () => {
    const runtime = createRuntime();
    const tree = supportTree(runtime);
    const outcomes: JobOutcome[] = [];
    const consumer = await runtime.bus.jobs.consume(
      'agents',
      async (job, delivery) => {
        outcomes.push(await runJob({ runtime, agents: [tree.triage], job, delivery }));
      },
      { concurrency: 1 },
    );
    const paused = await tree.triage.handle().generateNow();
    await runtime.answerLater(paused.generationId, { [DEEP_ID]: true });
    await expect.poll(() => outcomes.length).toBe(1);
    expect(outcomes[0]?.status).toBe('completed');
    expect(tree.runs).toMatchObject({ pay_out: 1, lookup_order: 1, add_note: 1 });
    await expect(
      tree.triage.handle().resumeNow({ checkpoint: paused.checkpoint, answers: { [DEEP_ID]: true } }),
    ).rejects.toMatchObject({ code: 'already_resumed' });
    expect(tree.runs.pay_out).toBe(1);
    await consumer.stop();
    await runtime.close();
  });

  it('a delegated agent that asks again pauses the root again, and the second answer finishes', async () => {
    const runtime = createRuntime();
    const tree = supportTree(runtime, { askAgain: true });
    const paused = await tree.triage.handle().generateNow();
    const again = await runtime.answer(paused.generationId, { [DEEP_ID]: true });
    expect(again.status).toBe('awaiting_input');
    expect(again.generationId).toBe(paused.generationId);
    expect(again.inputRequests.map((request) => [request.toolCallId, request.prompt])).toEqual([
      [DEEP_ID, 'Reference for the payout?'],
    ]);
    expect(tree.asked.map(({ info }) => info.resuming)).toEqual([false, true]);
    await expectRebuildMatches(runtime, again);
    const done = await runtime.answer(paused.generationId, { [DEEP_ID]: 'REF-9' });
    expect(done.status).toBe('completed');
    expect(tree.runs).toMatchObject({ pay_out: 1, lookup_order: 1, add_note: 1 });
    await runtime.close();
  });

  it('a delegated question that expires reaches the delegated model as no answer in time', async () => {
    const runtime = createRuntime();
    const tree = supportTree(runtime, { expiresIn: 50 });
    const paused = await tree.triage.handle().generateNow();
    expect(paused.checkpoint?.input_expires_at).toBe(paused.inputRequests[0]?.toJSON().expires_at);
    await expect
      .poll(async () => (await runtime.bus.events(paused.generationId)).map((event) => event.event))
      .toContain('completed');
    const root = await runtime.bus.events(paused.generationId);
    expect(root.find((event) => event.event === 'input_expired')?.data).toMatchObject({
      unanswered_tool_calls: [DEEP_ID],
    });
    const paymentsId = paused.checkpoint?.delegations?.['call_refunds']?.delegations?.['call_pay']
      ?.generation_id as string;
    const payments = await runtime.bus.events(paymentsId);
    const payout = payments.find((event) => event.event === 'tool_completed');
    expect(payout?.data).toMatchObject({ tool_call_id: 'call_payout', result: { error: 'no answer in time' } });
    expect(tree.runs.pay_out).toBe(0);
    await runtime.close();
  });

  it('two delegations pausing in one turn surface all their questions in one pause', async () => {
    const runtime = createRuntime();
    const tree = supportTree(runtime, { twice: true });
    const paused = await tree.triage.handle().generateNow();
    const ids = paused.inputRequests.map((request) => request.toolCallId);
    expect(ids).toEqual(['call_r1/call_pay/call_payout', 'call_r2/call_pay/call_payout']);
    expect(Object.keys(paused.checkpoint?.delegations ?? {})).toEqual(['call_r1', 'call_r2']);
    await expect(tree.triage.handle().resumeNow({ checkpoint: paused.checkpoint, answers: {} })).rejects.toMatchObject({
      code: 'missing_answer',
    });

    const done = await tree.triage.handle().resumeNow({
      checkpoint: throughJson(paused.checkpoint),
      answers: { [ids[0] as string]: true, [ids[1] as string]: false },
    });
    expect(done.status).toBe('completed');
    expect(tree.runs).toMatchObject({ pay_out: 1, lookup_order: 2, add_note: 1 });
    await runtime.close();
  });

  it('answers may come one delegation at a time: the other stays paused, asking again', async () => {
    const runtime = createRuntime();
    const tree = supportTree(runtime, { twice: true });
    const paused = await tree.triage.handle().generateNow();
    const [first = '', second = ''] = paused.inputRequests.map((request) => request.toolCallId);

    const halfway = await runtime.answer(paused.generationId, { [first]: true });
    expect(halfway.status).toBe('awaiting_input');
    expect(halfway.inputRequests.map((request) => request.toolCallId)).toEqual([second]);
    expect(Object.keys(halfway.checkpoint?.delegations ?? {})).toEqual(['call_r2']);
    // The paused delegation is carried as it was: the same checkpoint, nothing of it ran again.
    expect(halfway.checkpoint?.delegations?.['call_r2']).toEqual(paused.checkpoint?.delegations?.['call_r2']);
    expect(halfway.checkpoint?.completed_results).toMatchObject({
      call_note: {},
      call_r1: { tool_name: 'refunds_handle' },
    });
    expect(tree.runs).toMatchObject({ pay_out: 1, lookup_order: 2, add_note: 1 });
    expect((await runtime.pending()).map((entry) => entry.inputRequests.map((request) => request.toolCallId))).toEqual([
      [second],
    ]);
    await expectRebuildMatches(runtime, halfway);

    const done = await runtime.answer(paused.generationId, { [second]: true });
    expect(done.status).toBe('completed');
    expect(tree.runs).toMatchObject({ pay_out: 2, lookup_order: 2, add_note: 1 });
    await runtime.close();
  });

  it('a secret asked three levels down reaches its tool and is scrubbed at every level', async () => {
    const runtime = createRuntime();
    const tree = supportTree(runtime, { secret: true });
    const paused = await tree.triage.handle().generateNow();
    expect(paused.inputRequests[0]?.kind).toBe('secret');
    await expect(
      tree.triage.handle().resumeLater({ checkpoint: paused.checkpoint, answers: { [DEEP_ID]: PIN } }),
    ).rejects.toMatchObject({ code: 'secret_in_job' });

    const done = await tree.triage
      .handle()
      .resumeNow({ checkpoint: throughJson(paused.checkpoint), answers: { [DEEP_ID]: PIN } });
    expect(done.status).toBe('completed');
    expect(tree.runs.pins).toEqual([PIN]);
    expect(done.text).toContain('[FILTERED]');
    expect(done.text).not.toContain(PIN);
    const refundsId = paused.checkpoint?.delegations?.['call_refunds']?.generation_id as string;
    const paymentsId = paused.checkpoint?.delegations?.['call_refunds']?.delegations?.['call_pay']
      ?.generation_id as string;
    const events = await allEvents(runtime, paused.generationId, refundsId, paymentsId);
    expect(new Set(events.map((event) => event.generation_id)).size).toBe(3);
    // The payments model here repeats the PIN it was never shown (a model's own text is kept as it
    // is in its own events); from its tool result up, and in every caller, the PIN is [FILTERED].
    const leaking = events.filter((event) => JSON.stringify(event).includes(PIN));
    expect(leaking.map((event) => [event.agent, event.event])).toEqual([
      ['payments', 'model_responded'],
      ['payments', 'completed'],
    ]);
    const delegatedResult = events.find(
      (event) =>
        event.event === 'tool_completed' && event.agent === 'refunds' && event.data.tool_call_id === 'call_pay',
    );
    expect(JSON.stringify(delegatedResult)).toContain('[FILTERED]');
    await runtime.close();
  });

  it('a nested checkpoint edited at any level is refused before anything runs', async () => {
    const runtime = createRuntime();
    const tree = supportTree(runtime);
    const paused = await tree.triage.handle().generateNow();
    const edits: ((checkpoint: NonNullable<typeof paused.checkpoint>) => void)[] = [
      (checkpoint) => {
        const refunds = checkpoint.delegations?.['call_refunds'];
        if (refunds !== undefined) refunds.tool_turns = 0;
      },
      (checkpoint) => {
        const payments = checkpoint.delegations?.['call_refunds']?.delegations?.['call_pay'];
        (payments?.input_requests[0] as { prompt: string }).prompt = 'Pay out $3?';
      },
      (checkpoint) => {
        (checkpoint.input_requests[0] as { tool_call_id: string }).tool_call_id = 'call_refunds/call_pay/other';
      },
    ];
    for (const edit of edits) {
      const edited = throughJson(paused.checkpoint as NonNullable<typeof paused.checkpoint>);
      edit(edited);
      const resumed = tree.triage.handle().resumeNow({ checkpoint: edited, answers: { [DEEP_ID]: true } });
      await expect(resumed).rejects.toSatisfy(
        (error) => ResumeError.isInstance(error) && error.code === 'bad_signature',
      );
    }
    expect(tree.runs).toMatchObject({ pay_out: 0, lookup_order: 1, add_note: 1 });
    await runtime.close();
  });

  it("'return' stays the default: the delegated agent's question comes back to the calling model", async () => {
    const runtime = createRuntime();
    const payments = defineAgent({
      name: 'payments',
      runtime,
      provider: model([{ id: 'call_payout', name: 'ask', arguments: {} }], () => 'never'),
      actions: {
        pay: () => ({
          message: 'Pay',
          tools: [
            tool({ name: 'ask', description: 'ask', input: z.object({}), run: () => InputRequest.confirm('Pay?') }),
          ],
        }),
      },
    });
    const caller = defineAgent({
      name: 'caller',
      runtime,
      provider: model([{ id: 'call_pay', name: 'payments_pay', arguments: {} }], (request) =>
        JSON.stringify(request.messages.at(-1)),
      ),
      actions: { handle: () => ({ message: 'Go', tools: [delegate(payments, 'pay', { description: 'Pay' })] }) },
    });
    const done = await caller.handle().generateNow();
    expect(done.status).toBe('completed');
    expect(done.text).toContain('input_required');
    await runtime.close();
  });
});
