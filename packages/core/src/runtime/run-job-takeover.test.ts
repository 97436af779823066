import { describe, expect, it } from 'vitest';
import type { Bus } from '../bus/bus.js';
import { createMemoryBus } from '../bus/memory-bus.js';
import { rebuildCheckpoint } from '../checkpoint/rebuild-checkpoint.js';
import { expectRebuildMatches } from '../test-support/harness.js';
import { delivery, generateJob, resumeJob, stallingRefundAgent } from '../test-support/stall-fixture.js';
import { runJob } from './run-job.js';

/** Pauses the refund in-process and answers it as a job would: the starting point of every case. */
async function pausedRefund(options: { idempotent?: boolean } = {}) {
  const fixture = stallingRefundAgent(options);
  const paused = await fixture.agent.handle({ ticketId: 42 }).generateNow();
  const job = resumeJob(fixture.runtime, paused, { call_refund: true });
  return { ...fixture, paused, job };
}

/**
 * The paused refund's job: a first delivery whose worker stalls inside the refund (before its
 * side effect), then a second delivery of the same job, as the server makes once the first stops
 * heartbeating. `wake()` lets the stalled one go on and resolves with its outcome.
 */
async function stalledThenDeliveredAgain(options: { idempotent?: boolean } = {}) {
  const fixture = await pausedRefund(options);
  const { agent, runtime, job } = fixture;
  const stall = fixture.stallNextRefund();
  const entered = fixture.refundEntered();
  const stalled = runJob({ runtime, agents: [agent], job, delivery: delivery(1) });
  await entered;
  const successor = await runJob({ runtime, agents: [agent], job, delivery: delivery(2) });
  const wake = () => {
    stall.open();
    return stalled;
  };
  return { ...fixture, successor, wake };
}

describe('a job whose worker stalls past its lease', () => {
  it('is taken over by its next delivery: the stalled refund becomes a question, and the stalled holder, once it wakes, is fenced out', async () => {
    // The server hands the job out again (its holder stopped heartbeating): the run is taken over.
    const { runtime, refunds, paused, successor, wake } = await stalledThenDeliveredAgain();
    expect(successor.status).toBe('awaiting_input');
    const question = successor.status === 'awaiting_input' ? successor.response.inputRequests[0] : undefined;
    expect(question).toMatchObject({
      kind: 'confirm',
      prompt: 'issue_refund stopped mid-call on a worker that went away; run it again?',
      toolCallId: 'call_refund',
      metadata: { outcome_unknown: true, attempts: 1, answer: true },
    });
    expect(refunds).toHaveLength(0);

    // The stalled holder wakes: its refund finishes (once), then its next step finds the run taken.
    expect((await wake()).status).toBe('fenced');
    expect(refunds).toHaveLength(1);

    // The log is the successor's: its epoch, its question; nothing the fenced holder did after.
    const events = await runtime.bus.events(paused.generationId);
    const resumeRun = events.filter((event) => event.run !== 'start');
    expect(resumeRun.map((event) => `${event.event}@${event.epoch ?? 1}`)).toEqual(['resumed@2', 'input_requested@2']);
    expect(events.some((event) => event.event === 'completed')).toBe(false);
    const stored = await runtime.bus.checkpoints.load(paused.generationId);
    expect(stored?.checkpoint).toEqual(successor.status === 'awaiting_input' && successor.response.checkpoint);
    if (successor.status === 'awaiting_input') await expectRebuildMatches(runtime, successor.response);
  });

  it('a person who says yes runs the call again, with the answer it first ran with, announced as a second attempt', async () => {
    const { agent, runtime, refunds, paused, successor, wake } = await stalledThenDeliveredAgain();
    await wake();
    if (successor.status !== 'awaiting_input') throw new Error(`expected a question, got ${successor.status}`);

    const again = await agent
      .handle({ ticketId: 42 })
      .resumeNow({ checkpoint: successor.response.checkpoint, answers: { call_refund: true } });
    expect(again.status).toBe('completed');
    expect(refunds.map((refund) => refund.answer)).toEqual([true, true]);
    // The same key both times: a payment API given it applies the refund once.
    expect(new Set(refunds.map((refund) => refund.idempotencyKey)).size).toBe(1);
    const started = (await runtime.bus.events(paused.generationId)).filter((event) => event.event === 'tool_started');
    expect(started.at(-1)?.data).toEqual({
      tool_call_id: 'call_refund',
      tool_name: 'issue_refund',
      attempt: 2,
      reason: 'outcome_unknown',
    });
  });

  it('a person who says no declines the call: it does not run again', async () => {
    const { agent, refunds, successor, wake } = await stalledThenDeliveredAgain();
    await wake();
    if (successor.status !== 'awaiting_input') throw new Error(`expected a question, got ${successor.status}`);
    const declined = await agent
      .handle({ ticketId: 42 })
      .resumeNow({ checkpoint: successor.response.checkpoint, answers: { call_refund: false } });
    expect(declined.text).toBe('No refund, then.');
    expect(refunds).toHaveLength(1);
  });

  it('an idempotent tool simply runs again on the takeover, and says so', async () => {
    const { runtime, refunds, paused, successor, wake } = await stalledThenDeliveredAgain({ idempotent: true });
    expect(successor.status).toBe('completed');
    expect((await wake()).status).toBe('fenced');
    expect(refunds).toHaveLength(2);
    const events = (await runtime.bus.events(paused.generationId)).filter((event) => event.run !== 'start');
    expect(events.map((event) => event.event)).toEqual([
      'resumed',
      'tool_started',
      'tool_completed',
      'model_responded',
      'completed',
    ]);
    expect(events[1]?.data).toMatchObject({ attempt: 2, reason: 'outcome_unknown' });
    expect(events.every((event) => event.epoch === 2)).toBe(true);
  });
});

describe('a job delivered again after its run stopped', () => {
  it('runs nothing: a finished run is a duplicate (a lost ack, a restarted server)', async () => {
    const { agent, runtime, refunds, job, paused } = await pausedRefund();
    expect((await runJob({ runtime, agents: [agent], job, delivery: delivery(1) })).status).toBe('completed');
    const modelCalls = (await runtime.bus.events(paused.generationId)).length;
    // A first delivery again, as after a server restart: the claim log knows the job.
    expect(await runJob({ runtime, agents: [agent], job, delivery: delivery(1) })).toEqual({
      status: 'duplicate',
      stop: 'finished',
    });
    expect(refunds).toHaveLength(1);
    expect((await runtime.bus.events(paused.generationId)).length).toBe(modelCalls);
  });
});

describe('a job whose holder stopped between writing its pause and announcing it', () => {
  it('is settled by its next delivery: the checkpoint stored, listed as pending and input_requested published, once, with nothing run again', async () => {
    const bus = createMemoryBus();
    let failSaves = 1;
    let failListings = 1;
    const pending = bus.pending as NonNullable<Bus['pending']>;
    const flakyBus: Bus = {
      ...bus,
      pending: {
        ...pending,
        async put(record) {
          if (failListings > 0) {
            failListings -= 1;
            throw new Error('the worker died here');
          }
          return pending.put(record);
        },
      },
      checkpoints: {
        ...bus.checkpoints,
        async save(generationId, record) {
          if (failSaves > 0) {
            failSaves -= 1;
            throw new Error('the worker died here');
          }
          return bus.checkpoints.save(generationId, record);
        },
      },
    };
    const { agent, runtime } = stallingRefundAgent({ bus: flakyBus });
    const fixture = { agent, runtime };
    const job = generateJob(runtime, 'gen_settle');
    await expect(runJob({ ...fixture, agents: [agent], job, delivery: delivery(1) })).rejects.toThrow('died here');
    expect(await bus.checkpoints.load('gen_settle')).toBeUndefined();
    expect(await runtime.pending()).toEqual([]);

    const again = await runJob({ ...fixture, agents: [agent], job, delivery: delivery(2) });
    expect(again).toEqual({ status: 'duplicate', stop: 'paused' });
    const stored = await bus.checkpoints.load('gen_settle');
    expect(stored?.checkpoint).toMatchObject({ claim_slot: 4, input_requests: [{ tool_call_id: 'call_refund' }] });
    const events = await bus.events('gen_settle');
    expect(events.map((event) => event.event)).toEqual([
      'started',
      'model_responded',
      'tool_started',
      'tool_completed',
      'tool_started',
      'input_requested',
    ]);
    const rebuilt = rebuildCheckpoint(events, {
      checkpointKey: runtime.keys,
      params: stored?.params,
      audience: await runtime.audience(),
    });
    expect(rebuilt).toEqual(stored?.checkpoint);
    expect((await runtime.pending()).map((waiting) => waiting.generationId)).toEqual(['gen_settle']);
    // A third delivery finds it all there and changes nothing.
    await runJob({ ...fixture, agents: [agent], job, delivery: delivery(3) });
    expect(await bus.events('gen_settle')).toEqual(events);
  });
});
