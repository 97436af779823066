import { describe, expect, inject, it } from 'vitest';
import { startJobWorker } from './job-worker.js';
import { gate } from './test-support/gate.js';
import { openNatsBuses } from './test-support/nats-buses.js';
import { eventually, sampleJob, startCuttableProxy, uniqueId } from './testing/index.js';

const openBus = openNatsBuses();
/** A bus with a 30 s ack wait: a job that came back sooner was handed back, not timed out. */
const open = (servers: string = inject('natsUrl')) => openBus({ servers, jobAckWaitMs: 30_000 });

describe('worker.stop({ timeoutMs }) on natsBus', () => {
  it('hands a job still running at the bound back: another worker runs it at once as its second delivery', async () => {
    const queue = uniqueId('queue');
    const leaving = open();
    let startedOnLeaving = 0;
    let finishedOnLeaving = 0;
    const stuck = gate();
    const first = startJobWorker({
      bus: leaving,
      queue,
      concurrency: 2,
      handle: async (job) => {
        startedOnLeaving += 1;
        if (job.params !== 'quick') await stuck.passed;
        finishedOnLeaving += 1;
      },
    });
    await first.ready;
    const slow = sampleJob();
    const quick = { ...sampleJob(), params: 'quick' };
    await leaving.jobs.enqueue(queue, slow);
    await eventually(() => startedOnLeaving === 1, 'the slow job');

    const staying = open();
    const ranOnStaying: { id: string; attempt: number }[] = [];
    const second = startJobWorker({
      bus: staying,
      queue,
      concurrency: 1,
      handle: async (job, delivery) => void ranOnStaying.push({ id: job.id, attempt: delivery.attempt }),
    });
    await second.ready;

    await first.stop({ timeoutMs: 300 });
    expect(first.isConsuming()).toBe(false);
    expect(finishedOnLeaving).toBe(0);
    // Well inside the 30 s ack wait: handed back, not given up on by the server.
    await eventually(() => ranOnStaying.length === 1, 'the handed-back job on the other worker', 10_000);
    expect(ranOnStaying).toEqual([{ id: slow.id, attempt: 2 }]);

    // The leaving worker takes nothing new, and its late finish answers nothing.
    await staying.jobs.enqueue(queue, quick);
    await eventually(() => ranOnStaying.length === 2, 'a new job, on the worker that stayed');
    stuck.open();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(startedOnLeaving).toBe(1);
    expect(ranOnStaying.map((run) => run.id)).toEqual([slow.id, quick.id]);
    await second.stop();
  });

  it('waits for a job that finishes within the bound and acknowledges it; a second stop with 0 hands back at once', async () => {
    const queue = uniqueId('queue');
    const bus = open();
    const finished: string[] = [];
    let started = 0;
    const hang = gate();
    const worker = startJobWorker({
      bus,
      queue,
      concurrency: 1,
      handle: async (job) => {
        started += 1;
        await new Promise((resolve) => setTimeout(resolve, 200));
        finished.push(job.id);
      },
    });
    await worker.ready;
    const [done, handedBack] = [sampleJob(), sampleJob()];
    await bus.jobs.enqueue(queue, done);
    await eventually(() => started === 1, 'the job to start');
    await worker.stop({ timeoutMs: 20_000 });
    expect(finished).toEqual([done.id]);

    // A later worker gets only what was never run; then the same with a job that hangs.
    const later: { id: string; attempt: number }[] = [];
    const next = startJobWorker({
      bus,
      queue,
      concurrency: 1,
      handle: async (job, delivery) => {
        later.push({ id: job.id, attempt: delivery.attempt });
        if (later.length === 1) await hang.passed;
      },
    });
    await next.ready;
    await bus.jobs.enqueue(queue, handedBack);
    await eventually(() => later.length === 1, 'the job that hangs');
    const stopping = next.stop({ timeoutMs: 60_000 });
    await next.stop({ timeoutMs: 0 });
    await stopping;
    const after = startJobWorker({
      bus,
      queue,
      concurrency: 1,
      handle: async (job, delivery) => void later.push({ id: job.id, attempt: delivery.attempt }),
    });
    await eventually(() => later.length === 2, 'the handed-back job', 10_000);
    expect(later).toEqual([
      { id: handedBack.id, attempt: 1 },
      { id: handedBack.id, attempt: 2 },
    ]);
    hang.open();
    await after.stop();
  });

  it('says it consumes only while started and connected, and stops at once while its bus cannot connect', async () => {
    const proxy = await startCuttableProxy(inject('natsUrl'));
    const bus = open(proxy.url);
    const worker = startJobWorker({ bus, queue: uniqueId('queue'), concurrency: 1, handle: async () => undefined });
    expect(worker.isConsuming()).toBe(false);
    await worker.ready;
    expect(worker.isConsuming()).toBe(true);
    await proxy.close(); // the server is now unreachable: the client keeps trying
    await eventually(() => !worker.isConsuming(), 'the lost connection to show');
    await worker.stop({ timeoutMs: 1_000 });

    const nowhere = open(proxy.url);
    const never = startJobWorker({
      bus: nowhere,
      queue: uniqueId('queue'),
      concurrency: 1,
      handle: async () => undefined,
    });
    await never.stop(); // resolves although the bus never connected
    expect(never.isConsuming()).toBe(false);
  });
});
