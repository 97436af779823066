/**
 * A worker in its own process, for cross-process bus tests:
 * `node --import tsx test/support/bus-worker-process.ts` with the settings in env:
 * NATS_URL, QUEUE, SIDE_EFFECTS_FILE, and optionally STALL_FILE, MODEL_DELAY_MS,
 * MODEL_CALLS_FILE, JOB_ACK_WAIT_MS, JOB_MAX_DELIVER, AGENT_NAME, APPROVE_AFTER_MS, EXPIRE_UNANSWERED,
 * HOLD_REFUND_FILE with HOLD_REFUND (`killed` or `continued`) and HOLD_NEXT_REFUND_FILE (see `holdRefund`), REFUND_IDEMPOTENT=1,
 * HANG_BEFORE_ANNOUNCE_FILE (see `hangBeforeAnnouncing`)
 * (and INTERLUDE_PAYLOAD_KEY, which natsBus reads itself).
 * Prints `ready` once it consumes the queue, one `job <status> <generation_id>` line per job,
 * and drains on SIGTERM.
 */
import { createWorker, natsBus } from '@interlude/bus';
import { type Bus, createRuntime } from '@interlude/core';
import { defineRefundAgent, firstToCreate } from './bus-refund-agent.js';
import { drainOnSigterm, printJobOutcome, requiredSetting } from './worker-process.js';

const bus = natsBus({
  servers: requiredSetting('NATS_URL'),
  name: `worker-${process.pid}`,
  jobAckWaitMs: Number(process.env['JOB_ACK_WAIT_MS'] ?? 30_000),
  jobMaxDeliver: Number(process.env['JOB_MAX_DELIVER'] ?? 5),
});
const runtime = createRuntime({ bus: hangBeforeAnnouncing(bus, process.env['HANG_BEFORE_ANNOUNCE_FILE']) });

/**
 * With `file`: the first `input_requested` any worker would publish (the one that creates `file`)
 * is never sent; this worker prints `hanging <generation_id>` there instead, its pause stored and
 * listed but not announced, for the test to SIGKILL it.
 */
function hangBeforeAnnouncing(inner: Bus, file: string | undefined): Bus {
  if (file === undefined) return inner;
  return {
    ...inner,
    async publish(event) {
      if (event.event === 'input_requested' && firstToCreate(file)) {
        console.log(`hanging ${event.generation_id}`);
        await new Promise(() => undefined);
      }
      return inner.publish(event);
    },
  };
}

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
      ...(process.env['HOLD_NEXT_REFUND_FILE'] !== undefined && { next: process.env['HOLD_NEXT_REFUND_FILE'] }),
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
