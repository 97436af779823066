/**
 * A worker process of the NATS benchmarks: `node --expose-gc --import tsx test/bench/nats-worker.ts`
 * with NATS_URL, QUEUE, CONCURRENCY and optionally SAMPLE_EVERY in the environment.
 * Prints `ready` once it consumes its queue, `effect <tool> <generation_id>` each time a tool body
 * runs, `job <status> <generation_id>` after each job, and, every SAMPLE_EVERY jobs, its memory
 * after a full GC: `memory <jobs> <rss bytes> <heap used bytes>`. Drains on SIGTERM.
 */
import { createWorker, natsBus } from '@interlude/bus';
import { createRuntime } from '@interlude/core';
import { batchedStdout, drainOnSigterm, jobLine, requiredSetting } from '../support/worker-process.js';
import { defineNatsRefundAgent } from './nats-refund-agent.js';

const sampleEvery = Number(process.env['SAMPLE_EVERY'] ?? 0);
// Every line goes through one buffer, written once per event-loop turn, so they keep their order.
const print = batchedStdout();
const runtime = createRuntime({
  bus: natsBus({ servers: requiredSetting('NATS_URL'), name: `bench-worker-${process.pid}` }),
});
const support = defineNatsRefundAgent(runtime, (tool, generationId) => {
  print(`effect ${tool} ${generationId}\n`);
});
let jobs = 0;

function sampleMemory(): void {
  const collect = (globalThis as { gc?: () => void }).gc;
  collect?.();
  collect?.();
  const usage = process.memoryUsage();
  print(`memory ${jobs} ${usage.rss} ${usage.heapUsed}\n`);
}

const worker = createWorker({
  runtime,
  agents: [support],
  queue: requiredSetting('QUEUE'),
  concurrency: Number(requiredSetting('CONCURRENCY')),
  onJob: (job, outcome) => {
    jobs += 1;
    print(jobLine(job, outcome));
    // After the job's own promise settles, so the sample sees nothing of it in flight.
    if (sampleEvery > 0 && jobs % sampleEvery === 0) setTimeout(sampleMemory, 50);
  },
});

await drainOnSigterm(worker, () => runtime.close());
if (sampleEvery > 0) sampleMemory();
print('ready\n');
