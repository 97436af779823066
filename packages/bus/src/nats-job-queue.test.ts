import type { JobDelivery } from '@interlude/core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { startJobWorker } from './job-worker.js';
import { natsBus } from './nats-bus.js';
import { eventually, sampleJob, uniqueId } from './testing/index.js';

const quiet = () => undefined;
const opened: { close(): Promise<void> }[] = [];
const open = (jobAckWaitMs: number) => {
  const bus = natsBus({ servers: inject('natsUrl'), jobAckWaitMs, onError: quiet });
  opened.push(bus);
  return bus;
};

afterEach(async () => {
  await Promise.all(opened.splice(0).map((bus) => bus.close()));
});

describe('natsBus jobs', () => {
  it('keeps a job that runs longer than the ack wait alive with heartbeats: delivered once', async () => {
    const bus = open(600);
    const queue = uniqueId('queue');
    const attempts: number[] = [];
    let finished = false;
    const worker = startJobWorker({
      bus,
      queue,
      concurrency: 1,
      handle: async (_job, delivery) => {
        attempts.push(delivery.attempt);
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        finished = true;
      },
    });
    await worker.ready;
    await bus.jobs.enqueue(queue, sampleJob());
    await eventually(() => finished, 'the long job', 10_000);
    await worker.stop();
    expect(attempts).toEqual([1]);
  });

  it('redelivers to another consumer a job whose consumer went away without acknowledging', async () => {
    const queue = uniqueId('queue');
    const first = open(700);
    let started = false;
    const abandoned = startJobWorker({
      bus: first,
      queue,
      concurrency: 1,
      handle: () => {
        started = true;
        return new Promise<void>(() => undefined); // never finishes: its process "died"
      },
    });
    await abandoned.ready;
    const job = sampleJob();
    await first.jobs.enqueue(queue, job);
    await eventually(() => started, 'the first delivery');
    await first.close();

    const second = open(700);
    const deliveries: JobDelivery[] = [];
    const rescuer = startJobWorker({
      bus: second,
      queue,
      concurrency: 1,
      handle: async (got, delivery) => {
        expect(got).toEqual(job);
        deliveries.push(delivery);
      },
    });
    await eventually(() => deliveries.length === 1, 'the redelivery', 10_000);
    await rescuer.stop();
    expect(deliveries[0]?.attempt).toBe(2);
  });

  it('stop() before the consumer started still leaves no consumer running', async () => {
    const bus = open(30_000);
    const queue = uniqueId('queue');
    const seen: string[] = [];
    const worker = startJobWorker({ bus, queue, concurrency: 2, handle: async (job) => void seen.push(job.id) });
    await worker.stop();
    await worker.ready;
    await bus.jobs.enqueue(queue, sampleJob());
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(seen).toEqual([]);
  });
});
