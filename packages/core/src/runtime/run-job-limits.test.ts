import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineAgent } from '../agent/define-agent.js';
import type { Bus } from '../bus/bus.js';
import { createMemoryBus } from '../bus/memory-bus.js';
import { PayloadTooLargeError } from '../errors/payload-too-large-error.js';
import { delivery, generateJob, resumeJob, stallingRefundAgent } from '../test-support/stall-fixture.js';
import { scriptedProvider } from '../testing/scripted-provider.js';
import { tool } from '../tool/tool.js';
import { createRuntime } from './create-runtime.js';
import { jobVerdict, runJob } from './run-job.js';

/** A memory bus that carries at most `limit` bytes a message, as a NATS server with a `max_payload` does. */
function boundedBus(limit: number): Bus {
  const bus = createMemoryBus();
  return {
    ...bus,
    async publish(event) {
      const size = Buffer.byteLength(JSON.stringify(event));
      if (size > limit) throw new PayloadTooLargeError(`The ${event.event} event`, size, limit);
      return bus.publish(event);
    },
  };
}

describe('limits fail once, loudly', () => {
  it('a tool result the bus cannot carry: the body runs once, the generation ends failed with payload_too_large, the job is not run again', async () => {
    const runtime = createRuntime({ bus: boundedBus(16_384) });
    let runs = 0;
    const agent = defineAgent({
      name: 'exporter',
      runtime,
      provider: scriptedProvider([{ toolCalls: [{ id: 'call_export', name: 'export_rows', arguments: {} }] }]),
      actions: {
        handle: () => ({
          message: 'Export everything',
          tools: [
            tool({
              name: 'export_rows',
              description: 'Export the table',
              input: z.object({}),
              run: () => {
                runs += 1;
                return 'x'.repeat(40_000);
              },
            }),
          ],
        }),
      },
    });
    const job = generateJob(runtime, 'gen_big', 'exporter', {});
    const outcome = await runJob({ runtime, agents: [agent], job, delivery: delivery(1) });
    expect(outcome.status).toBe('failed');
    expect(outcome.status === 'failed' && outcome.error).toMatchObject({ code: 'payload_too_large' });
    expect(jobVerdict(outcome)).toEqual({ verdict: 'done' });
    expect(runs).toBe(1);
    const events = await runtime.bus.events('gen_big');
    expect(events.map((event) => event.event)).toEqual(['started', 'model_responded', 'tool_started', 'failed']);
    expect(events.at(-1)?.data).toMatchObject({ error: { code: 'payload_too_large' } });

    // Delivered again anyway (a lost ack): the claim log says it finished; nothing runs.
    expect(await runJob({ runtime, agents: [agent], job, delivery: delivery(2) })).toEqual({
      status: 'duplicate',
      stop: 'finished',
    });
    expect(runs).toBe(1);
  });

  it('a job delivered more often than allowed gives its claim back and is refused, with a failed event', async () => {
    const { agent, runtime, refunds } = stallingRefundAgent();
    const paused = await agent.handle({ ticketId: 42 }).generateNow();
    const resume = resumeJob(runtime, paused, { call_refund: true });
    const outcome = await runJob({
      runtime,
      agents: [agent],
      job: resume,
      delivery: { ...delivery(6), maxAttempts: 5 },
    });
    expect(jobVerdict(outcome)).toEqual({
      verdict: 'refuse',
      reason: { code: 'too_many_deliveries', message: 'The job was delivered 6 times (at most 5)' },
    });
    expect(refunds).toHaveLength(0);
    const failed = (await runtime.bus.events(paused.generationId)).filter((event) => event.event === 'failed');
    expect(failed.map((event) => event.data)).toEqual([
      {
        error: {
          name: 'InterludeError',
          message: 'The job was delivered 6 times (at most 5)',
          code: 'too_many_deliveries',
        },
      },
    ]);
    // Nothing is lost: the person's answer can still resume the checkpoint.
    const done = await runtime.answer(paused.generationId, { call_refund: true });
    expect(done.status).toBe('completed');
    expect(refunds).toHaveLength(1);
  });

  it('a job nested 100,000 deep is refused at once with invalid_checkpoint, before anything recursive reads it', async () => {
    const { agent, runtime, refunds } = stallingRefundAgent();
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    const outcome = await runJob({
      runtime,
      agents: [agent],
      job: { ...generateJob(runtime, 'gen_deep'), params: deep },
      delivery: delivery(1),
    });
    expect(jobVerdict(outcome)).toMatchObject({ verdict: 'refuse', reason: { code: 'invalid_checkpoint' } });
    expect(refunds).toHaveLength(0);
  });

  it('the memory queue dead-letters a refused job and one that kept failing, and neither comes back', async () => {
    const bus = createMemoryBus({ maxDeliveries: 3 });
    const seen: string[] = [];
    const consumer = await bus.jobs.consume(
      'limits',
      async (queued, { attempt }) => {
        seen.push(`${queued.id}#${attempt}`);
        if (queued.id === 'refused') return { verdict: 'refuse', reason: { code: 'bad_signature', message: 'forged' } };
        throw new Error('still failing');
      },
      { concurrency: 1 },
    );
    const runtime = createRuntime({ bus });
    await bus.jobs.enqueue('limits', { ...generateJob(runtime, 'gen_a'), id: 'refused' });
    await bus.jobs.enqueue('limits', { ...generateJob(runtime, 'gen_b'), id: 'failing' });
    await expect.poll(async () => (await bus.jobs.deadLetters('limits')).length).toBe(2);
    await consumer.stop();
    expect(seen).toEqual(['refused#1', 'failing#1', 'failing#2', 'failing#3']);
    const letters = await bus.jobs.deadLetters('limits');
    expect(letters.map((letter) => [letter.job?.id, letter.reason.code, letter.attempt])).toEqual([
      ['refused', 'bad_signature', 1],
      ['failing', 'too_many_deliveries', 3],
    ]);
  });
});
