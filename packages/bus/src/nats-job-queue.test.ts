import type { Job, JobDelivery } from '@interlude/core/internal';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { describe, expect, inject, it } from 'vitest';
import { startJobWorker } from './job-worker.js';
import { gate } from './test-support/gate.js';
import { openNatsBuses } from './test-support/nats-buses.js';
import { eventually, sampleJob, startCuttableProxy, uniqueId } from './testing/index.js';

const openBus = openNatsBuses();
const open = (jobAckWaitMs: number, servers: string = inject('natsUrl')) => openBus({ servers, jobAckWaitMs });

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

  it('never runs more jobs at once than its concurrency when a pull from before a reconnect delivers late; stop() hands the waiting job back', async () => {
    // The connection drops while a pull is waiting on the server: the consumer asks again after
    // the reconnect, and the server still holds the old pull too, so it delivers more jobs than
    // there are free slots.
    const proxy = await startCuttableProxy(inject('natsUrl'));
    const queue = uniqueId('queue');
    const flaky = open(10_000, proxy.url);
    let running = 0;
    let mostAtOnce = 0;
    const held = gate();
    const ranOnFlaky: string[] = [];
    const first = startJobWorker({
      bus: flaky,
      queue,
      concurrency: 2,
      handle: async (job) => {
        running += 1;
        mostAtOnce = Math.max(mostAtOnce, running);
        await held.passed;
        running -= 1;
        ranOnFlaky.push(job.id);
      },
    });
    await first.ready;
    const jobs = Array.from({ length: 5 }, () => sampleJob());
    await flaky.jobs.enqueue(queue, jobs[0] as Job);
    await eventually(() => running === 1, 'the first job');
    const pulls = await watchPulls(queue);
    const pullsBeforeCut = pulls.seen();
    proxy.cut();
    await eventually(() => proxy.accepted() === 2, 'the reconnect', 15_000);
    // The worker asks again after the reconnect, for the whole batch of the pull the cut
    // interrupted (two jobs, with one slot free); the server may also still hold that pull (it
    // drops a pull whose inbox lost interest only when it next checks, so whether it does is luck).
    // Either way it is offered more jobs than it has free slots.
    await eventually(() => pulls.seen() > pullsBeforeCut, 'the pull asked again after the reconnect', 15_000);
    const direct = open(10_000);
    for (const job of jobs.slice(1)) await direct.jobs.enqueue(queue, job);
    await eventually(async () => (await pulls.waiting()) === 0, 'every pull answered', 15_000);
    await pulls.close();
    // A round trip on the worker's own connection: the jobs the server sent it before this answer
    // have reached the worker.
    await flaky.health?.();

    const stopping = first.stop();
    held.open();
    await stopping;
    expect(mostAtOnce).toBe(2);
    expect(ranOnFlaky).toHaveLength(2);

    // What the stopped worker was given but had not started went back to the queue, with the rest.
    const ranOnSecond: { id: string; attempt: number }[] = [];
    const second = startJobWorker({
      bus: direct,
      queue,
      concurrency: 5,
      handle: async (job, delivery) => void ranOnSecond.push({ id: job.id, attempt: delivery.attempt }),
    });
    // A job the server sent to the worker's pull after that fetch had taken its batch reached no
    // listener: it comes back once its ack wait (10 s) is over, so the bound is past that.
    await eventually(() => ranOnSecond.length === 3, 'the other three jobs', 30_000);
    await new Promise((resolve) => setTimeout(resolve, 300)); // nothing more arrives
    await second.stop();
    await proxy.close();
    // A job the first worker held (delivered, never started) comes back as its second delivery.
    expect(ranOnSecond.filter((run) => run.attempt === 2).length).toBeGreaterThanOrEqual(1);
    const everyRun = [...ranOnFlaky, ...ranOnSecond.map((run) => run.id)];
    expect(everyRun.sort()).toEqual(jobs.map((job) => job.id).sort());
  });

  it('reports a job its own earlier attempt stored, its ack lost to a cut, as enqueued: not a duplicate', async () => {
    const proxy = await startCuttableProxy(inject('natsUrl'));
    try {
      const bus = openBus({ servers: proxy.url });
      const queue = uniqueId('queue');
      await bus.jobs.enqueue(queue, sampleJob()); // connected, the stream set up
      const job = sampleJob();
      proxy.cutAfterNextWrite(job.id);
      const accepted = proxy.accepted();
      expect(await bus.jobs.enqueue(queue, job)).toEqual({ duplicate: false });
      expect(proxy.accepted()).toBeGreaterThan(accepted); // the ack was lost: the retry came on a new connection
      // Stored once, and a second call with its id is another caller's duplicate.
      expect(await bus.jobs.enqueue(queue, job)).toEqual({ duplicate: true });
    } finally {
      await proxy.close();
    }
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

/**
 * The pull requests of a queue's consumer, on a connection of the test's own (not through the
 * proxy): how many the server was sent since (each is a message on its JetStream API subject), and
 * how many it holds now.
 */
async function watchPulls(queue: string): Promise<{
  seen(): number;
  waiting(): Promise<number>;
  close(): Promise<void>;
}> {
  const connection = await connect({ servers: inject('natsUrl') });
  const consumer = `interlude_jobs_${queue}`;
  let seen = 0;
  connection.subscribe(`$JS.API.CONSUMER.MSG.NEXT.INTERLUDE_JOBS.${consumer}`, {
    callback: () => {
      seen += 1;
    },
  });
  await connection.flush();
  const manager = await jetstreamManager(connection);
  return {
    seen: () => seen,
    waiting: async () => (await manager.consumers.info('INTERLUDE_JOBS', consumer)).num_waiting,
    close: () => connection.close(),
  };
}
