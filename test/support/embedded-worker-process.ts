/**
 * A worker embedded in an application, shut down the way the README shows:
 * `node --import tsx test/support/embedded-worker-process.ts`, settings in env: NATS_URL, QUEUE,
 * SIDE_EFFECTS_FILE, STALL_FILE (hang after the refund, so a job is running at SIGTERM), and
 * NATURAL_EXIT=1 to end with `worker.stop()` and `runtime.close()` alone, which must leave nothing
 * that keeps the process alive. Prints `ready` once it consumes the queue.
 */
import { createWorker, natsBus } from '@interlude/bus';
import { createRuntime } from '@interlude/core';
import { defineRefundAgent } from './bus-refund-agent.js';
import { printJobOutcome, requiredSetting } from './worker-process.js';

const runtime = createRuntime({ bus: natsBus({ servers: requiredSetting('NATS_URL') }) });
const support = defineRefundAgent(runtime, {
  sideEffectsFile: requiredSetting('SIDE_EFFECTS_FILE'),
  ...(process.env['STALL_FILE'] !== undefined && { stallFile: process.env['STALL_FILE'] }),
});
const worker = createWorker({
  runtime,
  agents: [support],
  queue: requiredSetting('QUEUE'),
  concurrency: 4,
  onJob: printJobOutcome,
});

if (process.env['NATURAL_EXIT'] === '1') {
  process.once('SIGTERM', async () => {
    await worker.stop();
    await runtime.close();
  });
} else {
  // README: embedded shutdown (begin)
  const shutdown = async () => {
    await worker.stop({ timeoutMs: 10_000 }); // no new jobs; running ones get 10 s, then are handed back
    await runtime.close(); // closes the NATS connection
    process.exit(0); // a job handed back may still be running here: it ends with the process
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  // README: embedded shutdown (end)
}

await worker.ready;
console.log('ready');
