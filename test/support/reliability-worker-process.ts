/**
 * A worker in its own process for the reliability suite:
 * `node --import tsx test/support/reliability-worker-process.ts`, settings in env:
 * NATS_URL (a cluster's URLs separated by commas), REPLICAS (default 1), QUEUE, POSTGRES_URL,
 * LEDGER_SCHEMA, JOB_ACK_WAIT_MS, WORKER_CONCURRENCY (default 1),
 * MODEL_DELAY_MS and CRASH_PLAN, a JSON map of
 * ticket id to crash point. At a planned point (the first time only, across restarts) it prints
 * `crash <point> <ticket>` and stalls, so the test can kill it there with SIGKILL. STALL_PLAN maps
 * tickets to a stall inside `issue_refund`, before its side effect (the first time only): `stop`
 * prints `stall <ticket>` and waits until it notices it was stopped (SIGSTOP, then SIGCONT) before
 * going on; `cpu` keeps the CPU busy for CPU_STALL_MS, so no heartbeat goes out. REFUND_IDEMPOTENT=1
 * declares the refund idempotent (applied once by its idempotency key). It prints `ready` once it
 * consumes the queue and `job <status> <generation_id>` per job; drains on SIGTERM.
 */
import { createWorker, natsBus } from '@interlude/bus';
import { type Bus, createRuntime, type Runtime } from '@interlude/core';
import { openTelemetry } from '@interlude/telemetry';
import { type CrashPoint, defineReliabilityAgent, type TicketParams } from './reliability-agent.js';
import { canaryCheckingTracer } from './reliability-canary.js';
import { connectLedger } from './reliability-ledger.js';
import { drainOnSigterm, printJobOutcome, requiredSetting } from './worker-process.js';

const ledger = connectLedger(requiredSetting('POSTGRES_URL'), requiredSetting('LEDGER_SCHEMA'));
const plan = JSON.parse(process.env['CRASH_PLAN'] ?? '{}') as Record<string, CrashPoint>;
const stalls = JSON.parse(process.env['STALL_PLAN'] ?? '{}') as Record<string, 'stop' | 'cpu'>;
const queue = requiredSetting('QUEUE');

async function atCrashPoint(point: CrashPoint, ticketId: number): Promise<void> {
  const stall = stalls[ticketId];
  if (point === 'before_tool' && stall !== undefined && (await ledger.firstTime(`stall ${queue} ${ticketId}`))) {
    if (stall === 'cpu') busyFor(Number(process.env['CPU_STALL_MS'] ?? 3_000));
    else await stopped(`stall ${ticketId}`);
    return;
  }
  if (plan[ticketId] !== point || !(await ledger.firstTime(`crash ${ticketId} ${point}`))) return;
  console.log(`crash ${point} ${ticketId}`);
  await new Promise(() => undefined);
}

/** A tool that computes for a while: the event loop (and every heartbeat) waits for it. */
function busyFor(milliseconds: number): void {
  const until = Date.now() + milliseconds;
  while (Date.now() < until) Math.sqrt(Math.random());
}

/** Announces `line`, then waits until the clock jumps (the process was stopped and continued). */
async function stopped(line: string): Promise<void> {
  console.log(line);
  const deadline = Date.now() + 20_000;
  for (let before = Date.now(); Date.now() < deadline; before = Date.now()) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    if (Date.now() - before > 500) return;
  }
}

const runtime = createRuntime({
  bus: natsBus({
    servers: requiredSetting('NATS_URL').split(','),
    replicas: Number(process.env['REPLICAS'] ?? 1),
    name: `reliability-worker-${process.pid}`,
    jobAckWaitMs: Number(process.env['JOB_ACK_WAIT_MS'] ?? 30_000),
  }),
  telemetry: openTelemetry({ tracerProvider: canaryCheckingTracer(ledger).tracerProvider }),
});
const support = defineReliabilityAgent(runtime, {
  ledger,
  atCrashPoint,
  refundIdempotent: process.env['REFUND_IDEMPOTENT'] === '1',
  ...(process.env['MODEL_DELAY_MS'] !== undefined && { modelDelayMs: Number(process.env['MODEL_DELAY_MS']) }),
});

/**
 * The runtime the worker consumes jobs through: the same bus, with one more step after each job's
 * handler and before the consumer acknowledges it, where a planned `before_ack` crash happens.
 */
function withCrashBeforeAck(inner: Runtime): Runtime {
  const jobs: Bus['jobs'] = {
    enqueue: (queue, job, headers) => inner.bus.jobs.enqueue(queue, job, headers),
    consume: (queue, handler, options) =>
      inner.bus.jobs.consume(
        queue,
        async (job, delivery) => {
          const verdict = await handler(job, delivery);
          if (job.kind === 'resume') await atCrashPoint('before_ack', (job.params as TicketParams).ticketId);
          return verdict;
        },
        options,
      ),
    deadLetters: (queue) => inner.bus.jobs.deadLetters(queue),
  };
  return { ...inner, bus: { ...inner.bus, jobs } };
}

const worker = createWorker({
  runtime: withCrashBeforeAck(runtime),
  agents: [support],
  queue,
  // One job at a time: a kill then lands exactly at the planned point of that job, never at a random
  // point of a second job (see the suite's README note on the window between a side effect and its event).
  concurrency: Number(process.env['WORKER_CONCURRENCY'] ?? 1),
  onJob: printJobOutcome,
});

await drainOnSigterm(worker, () => runtime.close().then(() => ledger.close()));
console.log('ready');
