import { natsBus, WORKER_METRICS } from '@interlude/bus';
import { createRuntime, type Runtime } from '@interlude/core';
import type { AgentBase } from '@interlude/core/internal';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type OtlpReceiver, type ReceivedMetricPoint, startOtlpReceiver } from '../support/otlp-receiver.js';
import { defineReliabilityAgent } from '../support/reliability-agent.js';
import { countByCall, createLedger, type Ledger } from '../support/reliability-ledger.js';
import { waitUntil } from '../support/reliability-wait.js';
import { probe, startWorkerBin, type WorkerBin } from '../support/worker-bin-process.js';

const TICKETS = [1, 2, 3, 4, 5, 6];
/** Its job is still running (hung after its refund) when the first worker is told to stop. */
const HANGING_TICKET = 3;

let ledger: Ledger & { drop(): Promise<void> };
let receiver: OtlpReceiver;
let runtime: Runtime;
let support: AgentBase;
const started: WorkerBin[] = [];
// A deployment of its own on the shared nats-server: the worker reports the questions waiting,
// read from the pending index, and other files' pauses (sealed with their keys) are none of its business.
const prefix = `bin${process.pid.toString(36)}${Date.now().toString(36)}`;

beforeAll(async () => {
  ledger = await createLedger(inject('postgresUrl'));
  receiver = await startOtlpReceiver();
  runtime = createRuntime({ bus: natsBus({ servers: inject('natsUrl'), prefix, onError: () => undefined }) });
  support = defineReliabilityAgent(runtime, { ledger });
});

afterAll(async () => {
  await Promise.all(started.map((worker) => worker.stop('SIGKILL')));
  await runtime?.close();
  await receiver?.close();
  await ledger?.drop();
});

/** The last point of `name` the receiver got from the worker with that `service.instance.id`. */
function latest(name: string, instance: unknown): ReceivedMetricPoint[] {
  const points = receiver
    .metricPoints()
    .filter((point) => point.name === name && point.resource['service.instance.id'] === instance);
  const last = points.at(-1)?.timeUnixNano;
  return points.filter((point) => point.timeUnixNano === last);
}

async function lastEvents(): Promise<string[]> {
  return Promise.all(
    generations.map(async (generationId) => (await runtime.bus.events(generationId)).at(-1)?.event ?? 'none'),
  );
}
const generations: string[] = [];

describe('the interlude-worker bin, run in the workspace on a TypeScript module', () => {
  it('runs jobs, answers /readyz, exports metrics, and on SIGTERM exits 0 within 10 s; the job it held is finished after a restart, each side effect once', async () => {
    const queue = `bin-${process.pid}-${Date.now().toString(36)}`;
    const env = {
      NATS_URL: inject('natsUrl'),
      INTERLUDE_QUEUE: queue,
      INTERLUDE_PREFIX: prefix,
      INTERLUDE_CONCURRENCY: '2',
      INTERLUDE_DRAIN_TIMEOUT_MS: '2000',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_TRACES_EXPORTER: 'none',
      OTEL_METRIC_EXPORT_INTERVAL: '250',
      POSTGRES_URL: inject('postgresUrl'),
      LEDGER_SCHEMA: ledger.schema,
      MODEL_DELAY_MS: '100',
      HANG_TICKETS: JSON.stringify([HANGING_TICKET]),
    };
    const first = startWorkerBin('support/worker-bin-agents.ts', env);
    started.push(first);
    const health = await first.healthUrl();
    expect((await probe(`${health}/healthz`)).status).toBe(200);
    await first.waitForLine(/^interlude-worker: ready: queue /, 30_000);
    expect(await probe(`${health}/readyz`)).toEqual({ status: 200, body: { status: 'ready' } });

    for (const ticketId of TICKETS) {
      generations.push((await support.generation('handle', { ticketId }).generateLater({ queue })).generationId);
    }
    await waitUntil(async () => (await lastEvents()).every((event) => event === 'input_requested'), 'six pauses', {
      timeoutMs: 30_000,
    });
    const { resource } = await receiver.waitForMetric((point) => point.name === WORKER_METRICS.jobDuration);
    const instance = resource['service.instance.id'];

    for (const generationId of generations) await runtime.answerLater(generationId, { call_refund: true }, { queue });
    await first.waitForLine(new RegExp(`^hanging ${HANGING_TICKET}$`), 30_000);

    const stoppedAt = Date.now();
    first.process.kill('SIGTERM');
    // Draining, it is no longer ready (or already gone).
    await waitUntil(
      async () => (await probe(`${health}/readyz`).catch(() => ({ status: 0, body: {} }))).status !== 200,
      'readiness to end',
      { timeoutMs: 5_000 },
    );
    const code = await Promise.race([
      first.exited,
      new Promise<string>((resolve) => setTimeout(() => resolve('still running 10 s after SIGTERM'), 10_000)),
    ]);
    expect(code).toBe(0);
    const exitedAfterMs = Date.now() - stoppedAt;
    expect(first.lines).toContainEqual(expect.stringMatching(/drain bound reached after \d+ ms: jobs still running/));
    expect(first.errors()).toBe('');

    // Its metrics went out, the last export included: every job timed, none left running.
    const durations = latest(WORKER_METRICS.jobDuration, instance);
    const timed = (outcome: string) =>
      durations
        .filter((point) => point.attributes['interlude.job.outcome'] === outcome)
        .reduce((sum, point) => sum + (point.count ?? 0), 0);
    expect(timed('awaiting_input')).toBe(TICKETS.length);
    expect(timed('completed')).toBeGreaterThanOrEqual(1);
    expect(latest(WORKER_METRICS.activeJobs, instance).reduce((sum, point) => sum + (point.value ?? 0), 0)).toBe(1);
    // Traces off (OTEL_TRACES_EXPORTER=none), the GenAI client metrics still go out with its own:
    // at least the model call of every pause, each with its input tokens.
    const inputTokens = latest('gen_ai.client.token.usage', instance).filter(
      (point) => point.attributes['gen_ai.token.type'] === 'input',
    );
    expect(inputTokens.reduce((sum, point) => sum + (point.count ?? 0), 0)).toBeGreaterThanOrEqual(TICKETS.length);
    expect(receiver.spans()).toEqual([]);

    // A restarted worker takes the job that was handed back and finishes it.
    const second = startWorkerBin('support/worker-bin-agents.ts', env);
    started.push(second);
    await second.waitForLine(/^interlude-worker: ready: /, 30_000);
    await waitUntil(async () => (await lastEvents()).every((event) => event === 'completed'), 'six completions', {
      timeoutMs: 30_000,
      progress: () => second.errors(),
    });
    second.process.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(second.lines).toContainEqual(expect.stringMatching(/drained in \d+ ms: every running job finished/));

    const rows = await ledger.rows();
    const counts = countByCall(rows);
    expect(counts.size).toBe(TICKETS.length * 2); // a lookup and a refund per generation
    expect([...counts.values()].every((count) => count === 1)).toBe(true);
    expect(rows.filter((row) => row.tool === 'issue_refund')).toHaveLength(TICKETS.length);
    console.log(`interlude-worker exited ${exitedAfterMs} ms after SIGTERM (drain bound 2000 ms)`);
  }, 120_000);
});
