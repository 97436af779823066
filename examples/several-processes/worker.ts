import { createWorker } from '@interlude/bus';
import { connect, defineSupport, QUEUE } from './support-agent.js';

// Long-lived: runs the generations queued for it, until SIGTERM or Ctrl-C.
const runtime = connect();
const worker = createWorker({ runtime, agents: [defineSupport(runtime)], queue: QUEUE });
const shutdown = async () => {
  await worker.stop({ timeoutMs: 10_000 }); // no new jobs; running ones get 10 s, then are handed back
  await runtime.close(); // closes the NATS connection
  process.exit(0);
};
process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);
await worker.ready;
console.log(`worker: serving queue ${QUEUE}`);
