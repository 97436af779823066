import { describe, expect, it } from 'vitest';
import type { Job } from '../bus/bus.js';
import { TrustError } from '../errors/trust-error.js';
import { runJob } from '../runtime/run-job.js';
import type { RuntimeOptions } from '../runtime/runtime.js';
import { resumeJobOf, scriptedAgent } from '../test-support/harness.js';
import { createRefundScenario } from '../testing/refund-fixture.js';
import { createCheckpointKeys } from './checkpoint-keys.js';
import { signJob } from './sign-job.js';

const KEY = 'job-signature-test-key-0123456789';
const OLD_KEY = 'an-older-key-still-accepted-0123';

/** A paused refund and the resume job a caller of resumeLater would have queued (unsigned). */
async function pausedRefund(options: RuntimeOptions = { checkpointKey: KEY }) {
  const scenario = createRefundScenario();
  const harness = scriptedAgent(scenario.action, scenario.replies, options);
  const paused = await harness.agent.handle({ ticketId: 42 }).generateNow();
  const job = resumeJobOf(paused, 'job-attacker', { ticketId: 42 }, { call_refund: true });
  return { ...harness, scenario, paused, job };
}

async function refusal(run: Promise<{ status: string; error?: Error }>) {
  const outcome = await run;
  return { status: outcome.status, code: TrustError.isInstance(outcome.error) ? outcome.error.code : outcome.error };
}

describe('nothing forged runs: jobs carry the runtime signature', () => {
  it('refuses an unsigned job before anything runs, and the person can still answer', async () => {
    const { runtime, agent, scenario, paused, job } = await pausedRefund();
    const delivery = { attempt: 1, headers: {}, maxAttempts: 5 };
    expect(await refusal(runJob({ runtime, agents: [agent], job, delivery }))).toEqual({
      status: 'refused',
      code: 'unsigned_job',
    });
    expect(scenario.runs.issue_refund).toBe(0);
    expect((await runtime.answer(paused.generationId, { call_refund: false })).status).toBe('completed');
    expect(scenario.refunds).toEqual([]);
  });

  it('refuses a signed job whose answers, params or checkpoint were changed afterwards', async () => {
    const { runtime, agent, scenario, job } = await pausedRefund();
    const signed = signJob({ ...job, answers: { call_refund: false } }, runtime.keys);
    const delivery = { attempt: 1, headers: {}, maxAttempts: 5 };
    for (const forged of [
      { ...signed, answers: { call_refund: true } },
      { ...signed, params: { ticketId: 43 } },
      { ...signed, checkpoint: { ...(signed.checkpoint as object), tool_turns: 9 } } as Job,
      { ...signed, key_id: createCheckpointKeys('someone-elses-key-0123456789').signingKeyId },
      // The signature in another written form (hex, or tagged with its key) is no signature.
      { ...signed, signature: Buffer.from(signed.signature as string, 'base64url').toString('hex') },
      { ...signed, signature: `${signed.key_id}.${signed.signature}` },
    ]) {
      expect(await refusal(runJob({ runtime, agents: [agent], job: forged, delivery }))).toEqual({
        status: 'refused',
        code: 'forged_job',
      });
    }
    expect(scenario.runs.issue_refund).toBe(0);
    expect((await runJob({ runtime, agents: [agent], job: signed, delivery })).status).toBe('completed');
    expect(scenario.refunds).toEqual([]);
  });

  it('runs a job signed with a key rotated out of signing but still accepted', async () => {
    const { runtime: before, job } = await pausedRefund({ checkpointKey: OLD_KEY });
    const signedBefore = signJob(job, before.keys);
    const scenario = createRefundScenario();
    const { runtime, agent } = scriptedAgent(scenario.action, [scenario.replies[1] as never], {
      checkpointKey: [KEY, OLD_KEY],
    });
    const outcome = await runJob({
      runtime,
      agents: [agent],
      job: signedBefore,
      delivery: { attempt: 1, headers: {}, maxAttempts: 5 },
    });
    expect(outcome.status).toBe('completed');
    expect(scenario.refunds).toEqual([{ order_id: 42, amount: 30 }]);
  });

  it('refuses a resume job without its checkpoint, even unsigned, rather than trust the stored one', async () => {
    const { runtime, agent, scenario, job } = await pausedRefund({ checkpointKey: false });
    const { checkpoint: _omitted, ...withoutCheckpoint } = job;
    expect(
      await refusal(
        runJob({
          runtime,
          agents: [agent],
          job: withoutCheckpoint,
          delivery: { attempt: 1, headers: {}, maxAttempts: 5 },
        }),
      ),
    ).toEqual({ status: 'refused', code: 'job_without_checkpoint' });
    expect(scenario.runs.issue_refund).toBe(0);
  });

  it('resumeLater and generateLater queue signed jobs that a worker of the same runtime runs', async () => {
    const { runtime, agent, scenario, paused } = await pausedRefund();
    const outcomes: string[] = [];
    const consumer = await runtime.bus.jobs.consume(
      'agents',
      async (queued, delivery) => {
        // One signature format, a checkpoint's: the key's id beside an HMAC in base64url.
        expect(queued).toMatchObject({ key_id: expect.stringMatching(/^[0-9a-f]{8}$/) });
        expect(queued.signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
        outcomes.push((await runJob({ runtime, agents: [agent], job: queued, delivery })).status);
      },
      { concurrency: 1 },
    );
    await runtime.answerLater(paused.generationId, { call_refund: true });
    await expect.poll(() => outcomes).toEqual(['completed']);
    expect(scenario.refunds).toEqual([{ order_id: 42, amount: 30 }]);
    await consumer.stop();
  });
});
