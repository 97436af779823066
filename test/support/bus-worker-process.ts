/**
 * A worker in its own process, for cross-process bus tests:
 * `node --import tsx test/support/bus-worker-process.ts` with the settings in env:
 * NATS_URL, QUEUE, SIDE_EFFECTS_FILE, and optionally STALL_FILE, MODEL_DELAY_MS,
 * MODEL_CALLS_FILE, JOB_ACK_WAIT_MS, JOB_MAX_DELIVER, AGENT_NAME, APPROVE_AFTER_MS, EXPIRE_UNANSWERED,
 * HOLD_REFUND_FILE with HOLD_REFUND (`killed` or `continued`, see `holdRefund`), REFUND_IDEMPOTENT=1
 * (and INTERLUDE_PAYLOAD_KEY, which natsBus reads itself).
 * Prints `ready` once it consumes the queue, one `job <status> <generation_id>` line per job,
 * and drains on SIGTERM.
 */
import { createWorker, natsBus } from '@interlude/bus';
import { createRuntime } from '@interlude/core';
import { defineRefundAgent } from './bus-refund-agent.js';
import { drainOnSigterm, printJobOutcome, requiredSetting } from './worker-process.js';

const runtime = createRuntime({
  bus: natsBus({
    servers: requiredSetting('NATS_URL'),
    name: `worker-${process.pid}`,
    jobAckWaitMs: Number(process.env['JOB_ACK_WAIT_MS'] ?? 30_000),
    jobMaxDeliver: Number(process.env['JOB_MAX_DELIVER'] ?? 5),
  }),
});
const support = defineRefundAgent(runtime, {
  sideEffectsFile: requiredSetting('SIDE_EFFECTS_FILE'),
  ...(process.env['STALL_FILE'] !== undefined && { stallFile: process.env['STALL_FILE'] }),
  ...(process.env['MODEL_DELAY_MS'] !== undefined && { modelDelayMs: Number(process.env['MODEL_DELAY_MS']) }),
  ...(process.env['MODEL_CALLS_FILE'] !== undefined && { modelCallsFile: process.env['MODEL_CALLS_FILE'] }),
  ...(process.env['AGENT_NAME'] !== undefined && { name: process.env['AGENT_NAME'] }),
  ...(process.env['APPROVE_AFTER_MS'] !== undefined && { approveAfterMs: Number(process.env['APPROVE_AFTER_MS']) }),
  ...(process.env['EXPIRE_UNANSWERED'] === '1' && { expireUnanswered: true }),
  ...(process.env['HOLD_REFUND_FILE'] !== undefined && {
    holdRefund: {
      file: process.env['HOLD_REFUND_FILE'],
      until: process.env['HOLD_REFUND'] === 'killed' ? ('killed' as const) : ('continued' as const),
    },
  }),
  refundIdempotent: process.env['REFUND_IDEMPOTENT'] === '1',
});
const worker = createWorker({
  runtime,
  agents: [support],
  queue: requiredSetting('QUEUE'),
  concurrency: 2,
  onJob: printJobOutcome,
});

await drainOnSigterm(worker, () => runtime.close());
console.log('ready');
