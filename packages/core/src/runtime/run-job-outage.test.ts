import { describe, expect, it } from 'vitest';
import type { Bus } from '../bus/bus.js';
import { createMemoryBus } from '../bus/memory-bus.js';
import { InterludeError } from '../errors/interlude-error.js';
import { delivery, resumeJob, stallingRefundAgent } from '../test-support/stall-fixture.js';
import { isPermanentFailure } from './permanent-failure.js';
import { jobVerdict, runJob } from './run-job.js';

/** What the NATS bus throws when a stream has no leader for longer than `unavailableAfterMs`. */
function outage(operation: string): InterludeError {
  return new InterludeError('bus_unavailable', `${operation} gave up after 10000 ms: no leader`);
}

/**
 * A memory bus a test can cut: `down.deployment` makes the deployment id unreadable (as the
 * checkpoint bucket is while it elects a leader), `down.publishOf` fails the next publish of
 * that event once.
 */
function cuttableBus() {
  const bus = createMemoryBus();
  const down = { deployment: false, publishOf: undefined as string | undefined };
  const cut: Bus = {
    ...bus,
    async deploymentId() {
      if (down.deployment) throw outage('deploymentId');
      return 'deployment-a';
    },
    async publish(event) {
      if (event.event === down.publishOf) {
        down.publishOf = undefined;
        throw outage('publish');
      }
      return bus.publish(event);
    },
  };
  return { bus: cut, down };
}

describe('a job that meets a bus outage is delivered again, never acknowledged as failed', () => {
  it('bus_unavailable is not a permanent failure; a refusal still is', () => {
    expect(isPermanentFailure(outage('publish'))).toBe(false);
    expect(isPermanentFailure(new InterludeError('payload_too_large', 'too big'))).toBe(true);
  });

  it('an outage before anything ran (a new worker reads the deployment id): the delivery fails for another, which completes the generation; the refund runs once', async () => {
    const { bus, down } = cuttableBus();
    const asker = stallingRefundAgent({ bus });
    const paused = await asker.agent.handle({ ticketId: 42 }).generateNow();
    const job = resumeJob(asker.runtime, paused, { call_refund: true });
    // The worker's runtime has not read the deployment id yet: its first job reads it.
    const { agent, runtime, refunds } = stallingRefundAgent({ bus });

    down.deployment = true;
    await expect(runJob({ runtime, agents: [agent], job, delivery: delivery(1) })).rejects.toMatchObject({
      code: 'bus_unavailable',
    });
    expect(refunds).toHaveLength(0);

    down.deployment = false;
    const outcome = await runJob({ runtime, agents: [agent], job, delivery: delivery(2) });
    expect(outcome.status).toBe('completed');
    expect(jobVerdict(outcome)).toEqual({ verdict: 'done' });
    expect(refunds).toHaveLength(1);
    expect((await runtime.bus.events(paused.generationId)).at(-1)?.event).toBe('completed');
  });

  it('an outage after the refund ran: the next delivery reuses its logged result and completes; the refund runs once', async () => {
    const { bus, down } = cuttableBus();
    const { agent, runtime, refunds } = stallingRefundAgent({ bus });
    const paused = await agent.handle({ ticketId: 42 }).generateNow();
    const job = resumeJob(runtime, paused, { call_refund: true });

    // The model's answer after the refund cannot be announced: the run fails, its claim goes back.
    down.publishOf = 'model_responded';
    await expect(runJob({ runtime, agents: [agent], job, delivery: delivery(1) })).rejects.toMatchObject({
      code: 'bus_unavailable',
    });
    expect(refunds).toHaveLength(1);

    const outcome = await runJob({ runtime, agents: [agent], job, delivery: delivery(2) });
    expect(outcome.status).toBe('completed');
    expect(refunds).toHaveLength(1);
    const events = (await runtime.bus.events(paused.generationId)).map((event) => event.event);
    expect(events.at(-1)).toBe('completed');
    expect(events.filter((event) => event === 'completed')).toHaveLength(1);
  });
});
