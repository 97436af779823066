import { describe, expect, it } from 'vitest';
import { resumeJobOf, scriptedAgent } from '../test-support/harness.js';
import { createRefundScenario } from '../testing/refund-fixture.js';
import { signJob } from '../trust/sign-job.js';
import { type JobOutcome, runJob } from './run-job.js';

describe('background generations through the job queue', () => {
  it('generateLater and resumeLater hand jobs to the queue; runJob finishes them, running each tool once', async () => {
    const scenario = createRefundScenario();
    const { agent, runtime } = scriptedAgent(scenario.action, scenario.replies);
    const outcomes: JobOutcome[] = [];
    const consumer = await runtime.bus.jobs.consume(
      'agents',
      async (job, delivery) => {
        outcomes.push(await runJob({ runtime, agents: [agent], job, delivery }));
      },
      { concurrency: 2 },
    );

    const { generationId } = await agent.handle({ ticketId: 3 }).generateLater();
    await expect.poll(() => outcomes.length).toBe(1);
    expect(outcomes[0]?.status).toBe('awaiting_input');
    const stored = await runtime.bus.checkpoints.load(generationId);
    expect(stored?.params).toEqual({ ticketId: 3 });

    await runtime.answerLater(generationId, { call_refund: true });
    await expect.poll(() => outcomes.length).toBe(2);
    expect(outcomes[1]?.status).toBe('completed');
    expect(scenario.runs).toEqual({ lookup_order: 1, issue_refund: 1 });
    await consumer.stop();
  });

  it('a redelivered resume job reuses the tool results its first delivery logged', async () => {
    const scenario = createRefundScenario();
    const { agent, runtime } = scriptedAgent(scenario.action, [
      scenario.replies[0] as never,
      () => {
        throw new Error('worker died here');
      },
      scenario.replies[1] as never,
    ]);
    const paused = await agent.handle({ ticketId: 3 }).generateNow();
    const job = signJob(resumeJobOf(paused, 'job-1', { ticketId: 3 }, { call_refund: true }), runtime.keys);
    await expect(runJob({ runtime, job, delivery: { attempt: 1, headers: {}, maxAttempts: 5 } })).rejects.toThrow(
      'worker died here',
    );
    expect(scenario.runs.issue_refund).toBe(1);

    const second = await runJob({ runtime, job, delivery: { attempt: 2, headers: {}, maxAttempts: 5 } });
    expect(second.status).toBe('completed');
    expect(scenario.runs.issue_refund).toBe(1);
    const events = await runtime.bus.events(paused.generationId);
    expect(events.filter((event) => event.event === 'tool_completed').map((event) => event.data)).toHaveLength(2);
    expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
  });

  it('refuses, without retrying, a job for an agent it does not serve', async () => {
    const { runtime } = scriptedAgent(() => ({ message: 'x' }), []);
    const outcome = await runJob({
      runtime,
      job: signJob(
        {
          version: 1,
          id: 'j',
          kind: 'generate',
          agent: 'nobody',
          action: 'handle',
          params: {},
          generation_id: 'gen_x',
        },
        runtime.keys,
      ),
      delivery: { attempt: 1, headers: {}, maxAttempts: 5 },
    });
    expect(outcome.status).toBe('refused');
  });

  it('refuses, before anything runs, a job the wire contract does not take, naming the fields', async () => {
    const { runtime } = scriptedAgent(() => ({ message: 'x' }), []);
    const job = { version: 1, id: 'j', kind: 'generate', agent: '', action: 'handle', generation_id: 'gen_x' } as const;
    const refusal = async (candidate: unknown) => {
      const outcome = await runJob({
        runtime,
        job: candidate as never,
        delivery: { attempt: 1, headers: {}, maxAttempts: 5 },
      });
      return outcome.status === 'refused' ? outcome.error.message : outcome.status;
    };
    expect(await refusal(job)).toMatch(/^The job is malformed: not a version 1 job \(agent: /);
    expect(await refusal({ ...job, agent: 'support', traceparent: 5 })).toMatch(/\(traceparent: /);
    expect(await refusal({ ...job, agent: 'support', kind: 'cancel' })).toMatch(/\(kind: /);
  });
});
