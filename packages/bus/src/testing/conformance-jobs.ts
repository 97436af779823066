import type { Bus } from '@interlude/core';
import type { Job, JobDelivery } from '@interlude/core/internal';
import { expect, it } from 'vitest';
import { eventually } from './conformance-events.js';
import { sampleJob, uniqueId } from './fixtures.js';

const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

/** Enqueue, consume, acknowledge, redeliver, concurrency and draining. */
export function jobQueueCases(bus: () => Bus): void {
  it('hands an enqueued job to the consumer once, with its trace context', async () => {
    const queue = uniqueId('queue');
    const job = sampleJob({ traceparent });
    const received: { job: Job; delivery: JobDelivery }[] = [];
    await bus().jobs.enqueue(queue, job, { traceparent });
    const consumer = await bus().jobs.consume(
      queue,
      async (got, delivery) => void received.push({ job: got, delivery }),
      {
        concurrency: 1,
      },
    );
    await eventually(() => received.length === 1, 'the job');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await consumer.stop();
    expect(received).toHaveLength(1);
    expect(received[0]?.job).toEqual(job);
    expect(received[0]?.delivery.attempt).toBe(1);
    expect(received[0]?.delivery.headers['traceparent']).toBe(traceparent);
  });

  it('redelivers a job whose handler rejected, counting attempts', async () => {
    const queue = uniqueId('queue');
    const attempts: number[] = [];
    const consumer = await bus().jobs.consume(
      queue,
      async (_job, delivery) => {
        attempts.push(delivery.attempt);
        if (delivery.attempt === 1) throw new Error('worker failed');
      },
      { concurrency: 1 },
    );
    await bus().jobs.enqueue(queue, sampleJob());
    await eventually(() => attempts.length === 2, 'the redelivery', 10_000);
    await consumer.stop();
    expect(attempts).toEqual([1, 2]);
  });

  it('runs at most `concurrency` jobs at once and runs them all', async () => {
    const queue = uniqueId('queue');
    let running = 0;
    let peak = 0;
    const done: string[] = [];
    const jobs = Array.from({ length: 6 }, () => sampleJob());
    for (const job of jobs) await bus().jobs.enqueue(queue, job);
    const consumer = await bus().jobs.consume(
      queue,
      async (job) => {
        running += 1;
        peak = Math.max(peak, running);
        await new Promise((resolve) => setTimeout(resolve, 50));
        running -= 1;
        done.push(job.id);
      },
      { concurrency: 2 },
    );
    await eventually(() => done.length === 6, 'all six jobs', 10_000);
    await consumer.stop();
    expect(peak).toBe(2);
    expect([...done].sort()).toEqual(jobs.map((job) => job.id).sort());
  });

  it('stop() waits for running jobs and takes no new ones; a later consumer gets them', async () => {
    const queue = uniqueId('queue');
    const finished: string[] = [];
    let started = 0;
    const consumer = await bus().jobs.consume(
      queue,
      async (job) => {
        started += 1;
        await new Promise((resolve) => setTimeout(resolve, 200));
        finished.push(job.id);
      },
      { concurrency: 1 },
    );
    const first = sampleJob();
    await bus().jobs.enqueue(queue, first);
    await eventually(() => started === 1, 'the first job to start');
    await consumer.stop();
    expect(finished).toEqual([first.id]);

    const second = sampleJob();
    await bus().jobs.enqueue(queue, second);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(started).toBe(1);
    const later: string[] = [];
    const next = await bus().jobs.consume(queue, async (job) => void later.push(job.id), { concurrency: 1 });
    await eventually(() => later.length === 1, 'the second job on the new consumer');
    await next.stop();
    expect(later).toEqual([second.id]);
  });

  it('dead-letters a job its handler refuses, and one that failed on every delivery; neither comes back', async () => {
    const queue = uniqueId('queue');
    const refused = sampleJob();
    const failing = sampleJob();
    const deliveries: string[] = [];
    let maxAttempts = 0;
    const consumer = await bus().jobs.consume(
      queue,
      async (job, delivery) => {
        deliveries.push(`${job.id === refused.id ? 'refused' : 'failing'}#${delivery.attempt}`);
        maxAttempts = delivery.maxAttempts;
        if (job.id === refused.id) return { verdict: 'refuse', reason: { code: 'bad_signature', message: 'forged' } };
        throw new Error('always failing');
      },
      { concurrency: 2 },
    );
    await bus().jobs.enqueue(queue, refused);
    await bus().jobs.enqueue(queue, failing);
    await eventually(async () => (await bus().jobs.deadLetters(queue)).length === 2, 'two dead letters', 20_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await consumer.stop();
    expect(maxAttempts).toBeGreaterThan(1);
    expect(deliveries.filter((entry) => entry.startsWith('refused'))).toEqual(['refused#1']);
    expect(deliveries.filter((entry) => entry.startsWith('failing'))).toEqual(
      Array.from({ length: maxAttempts }, (_, index) => `failing#${index + 1}`),
    );
    const letters = await bus().jobs.deadLetters(queue);
    expect(letters.map((letter) => [letter.job?.id, letter.reason.code, letter.attempt, letter.queue])).toEqual([
      [refused.id, 'bad_signature', 1, queue],
      [failing.id, 'too_many_deliveries', maxAttempts, queue],
    ]);
    expect(letters[0]?.job).toEqual(refused);
  }, 30_000);

  it('stores a job whose id it still knows once, and says so', async () => {
    const queue = uniqueId('queue');
    const first = sampleJob();
    const sentinel = sampleJob();
    expect(await bus().jobs.enqueue(queue, first)).toEqual({ duplicate: false });
    expect(await bus().jobs.enqueue(queue, { ...first, answers: { call_1: false } })).toEqual({ duplicate: true });
    expect(await bus().jobs.enqueue(queue, sentinel)).toEqual({ duplicate: false });
    const seen: Job[] = [];
    const consumer = await bus().jobs.consume(queue, async (job) => void seen.push(job), { concurrency: 1 });
    // In queue order: once the job enqueued last is handed out, the duplicate would have been before it.
    await eventually(() => seen.some((job) => job.id === sentinel.id), 'the job enqueued last');
    await consumer.stop();
    expect(seen).toEqual([first, sentinel]);
  });

  it('keeps queues apart', async () => {
    const [left, right] = [uniqueId('queue'), uniqueId('queue')];
    const seen: string[] = [];
    const consumer = await bus().jobs.consume(left, async (job) => void seen.push(job.id), { concurrency: 1 });
    const rightJob = sampleJob();
    const leftJob = sampleJob();
    await bus().jobs.enqueue(right, rightJob);
    await bus().jobs.enqueue(left, leftJob);
    await eventually(() => seen.length === 1, 'the left job');
    await new Promise((resolve) => setTimeout(resolve, 200));
    await consumer.stop();
    expect(seen).toEqual([leftJob.id]);
  });
}
