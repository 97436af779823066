import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { natsBus } from '@interlude/bus';
import { createRuntime, type Runtime } from '@interlude/core';
import { type Job, newGenerationId, signJob } from '@interlude/core/internal';
import { createRefundScenario } from '@interlude/core/testing';
import { openTelemetry } from '@interlude/telemetry';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ATTR_GEN_AI_CONVERSATION_ID } from '@opentelemetry/semantic-conventions/incubating';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { formatTraceparent } from '../../packages/telemetry/src/traceparent.js';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from '../support/otlp-receiver.js';
import { defineSupport } from './fixtures/support-agent.js';

const here = dirname(fileURLToPath(import.meta.url));
const queue = `telemetry_${randomUUID().slice(0, 8)}`;

let receiver: OtlpReceiver;
let worker: ChildProcess;
let workerLines: string[];
let tracerProvider: BasicTracerProvider;
let runtime: Runtime;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  tracerProvider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'support-web' }),
    spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: receiver.tracesUrl }))],
  });
  runtime = createRuntime({
    bus: natsBus({ servers: inject('natsUrl'), name: 'telemetry-web' }),
    telemetry: openTelemetry({ tracerProvider }),
  });
  ({ process: worker, lines: workerLines } = await startWorker());
});

afterAll(async () => {
  worker?.kill('SIGTERM');
  await new Promise((resolve) => worker?.once('exit', resolve));
  await tracerProvider?.shutdown();
  await runtime?.close();
  await receiver?.close();
});

/** Spawns `fixtures/support-worker.ts` with tsx and resolves once it consumes the queue. */
function startWorker(): Promise<{ process: ChildProcess; lines: string[] }> {
  const child = spawn(join(here, '../node_modules/.bin/tsx'), [join(here, 'fixtures/support-worker.ts')], {
    env: { ...process.env, NATS_URL: inject('natsUrl'), OTLP_TRACES_URL: receiver.tracesUrl, QUEUE: queue },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start in 20 s:\n${errors}`)), 20_000);
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}:\n${errors}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      if (line === 'ready') {
        clearTimeout(timer);
        resolve({ process: child, lines });
      }
    });
  });
}

async function spansWhere(predicate: (spans: ReceivedSpan[]) => boolean, timeoutMs = 15_000): Promise<ReceivedSpan[]> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const spans = receiver.spans();
    if (predicate(spans)) return spans;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`spans never matched; got ${JSON.stringify(receiver.spans().map((span) => span.name))}`);
}

it('links the run a worker process resumed to the run that paused in this process', async () => {
  const scenario = createRefundScenario();
  const support = defineSupport(runtime, scenario.replies);
  const paused = await support.handle({ ticketId: 42 }).generateNow();
  expect(paused.awaitingInput).toBe(true);
  await support
    .handle({ ticketId: 42 })
    .resumeLater({ checkpoint: paused.checkpoint, answers: { call_refund: true }, queue });

  const ofGeneration = (spans: ReceivedSpan[]) =>
    spans
      .filter((span) => span.resource['service.name'] === 'support-worker' && span.name.startsWith('invoke_agent'))
      .filter((span) => span.attributes['interlude.generation_id'] === paused.generationId);
  const spans = await spansWhere((all) => ofGeneration(all).length === 1 && all.length >= 7);
  const pausedRoot = spans.find(
    (span) =>
      span.resource['service.name'] === 'support-web' &&
      span.attributes['interlude.generation_id'] === paused.generationId &&
      span.name === 'invoke_agent support',
  )!;
  const [resumedRoot] = ofGeneration(spans);

  expect(pausedRoot.attributes['agent.awaiting_input']).toBe(true);
  expect(resumedRoot!.attributes).toMatchObject({ 'interlude.resumed': true, 'interlude.outcome': 'completed' });
  expect(resumedRoot!.attributes).not.toHaveProperty('agent.awaiting_input');
  expect(resumedRoot!.links).toEqual([{ traceId: pausedRoot.traceId, spanId: pausedRoot.spanId, attributes: {} }]);
  const resumedChildren = spans.filter((span) => span.parentSpanId === resumedRoot!.spanId).map((span) => span.name);
  expect(resumedChildren.sort()).toEqual(['chat scripted-1', 'execute_tool issue_refund']);
  // Both halves, in both processes: every span says which conversation it belongs to.
  const bothHalves = spans.filter(
    (span) => span.traceId === pausedRoot.traceId || span.traceId === resumedRoot!.traceId,
  );
  expect(bothHalves.length).toBeGreaterThanOrEqual(7);
  for (const span of bothHalves) expect(span.attributes[ATTR_GEN_AI_CONVERSATION_ID]).toBe('ticket-42');
  expect(workerLines.some((line) => line.includes('"status":"completed"'))).toBe(true);
});

it("puts a worker's generation in the trace of whoever enqueued the job, through the NATS headers", async () => {
  const caller = tracerProvider.getTracer('web').startSpan('POST /tickets/43/escalate');
  // Signed with the suite's key, which the worker process holds too; the trace context rides in the header.
  const job: Job = signJob(
    {
      version: 1,
      id: randomUUID(),
      kind: 'generate',
      agent: 'support',
      action: 'handle',
      params: { ticketId: 43 },
      generation_id: newGenerationId(),
    },
    runtime.keys,
  );
  await runtime.bus.jobs.enqueue(queue, job, { traceparent: formatTraceparent(caller.spanContext()) });
  caller.end();

  const rootOf = (spans: ReceivedSpan[]) =>
    spans.find(
      (span) =>
        span.name === 'invoke_agent support' && span.attributes['interlude.generation_id'] === job.generation_id,
    );
  const spans = await spansWhere((all) => rootOf(all) !== undefined);
  const root = rootOf(spans)!;
  expect(root.resource['service.name']).toBe('support-worker');
  expect(root.traceId).toBe(caller.spanContext().traceId);
  expect(root.parentSpanId).toBe(caller.spanContext().spanId);
});
