import { natsBus } from '@interlude/bus';
import { createRuntime, defineAgent, type Runtime, tool } from '@interlude/core';
import { scriptedProvider } from '@interlude/core/testing';
import { openTelemetry, semconv } from '@interlude/telemetry';
import { createInMemoryTracing } from '@interlude/telemetry/testing';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ATTR_GEN_AI_CONVERSATION_ID } from '@opentelemetry/semantic-conventions/incubating';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { type OtlpReceiver, startOtlpReceiver } from '../support/otlp-receiver.js';
import { waitUntil } from '../support/reliability-wait.js';
import { startWorkerBin, type WorkerBin } from '../support/worker-bin-process.js';
import { defineAnnouncer, defineNotifier } from './fixtures/notifier-agents.js';

// One `interlude-worker` run for the standard variables worker-bin-trace.test.ts leaves at their
// defaults: a traces endpoint alone (so no metrics go out), OTLP/JSON, and a sampler that records
// a job's run only when its caller's trace was sampled. A third runtime, outside any generation,
// answers the question a job's run left, exporting OTLP/JSON to the same receiver.
let receiver: OtlpReceiver;
let runtime: Runtime;
let worker: WorkerBin;
let answering: { runtime: Runtime; tracerProvider: BasicTracerProvider };
const tracing = createInMemoryTracing();
const queue = `otel-vars-${process.pid}-${Date.now().toString(36)}`;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  runtime = createRuntime({
    bus: natsBus({ servers: inject('natsUrl'), name: 'otel-vars-web' }),
    telemetry: openTelemetry({ tracerProvider: tracing.tracerProvider }),
  });
  const tracerProvider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'notify-answers' }),
    spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: receiver.tracesUrl }))],
  });
  answering = {
    tracerProvider,
    runtime: createRuntime({
      bus: natsBus({ servers: inject('natsUrl'), name: 'otel-vars-answers' }),
      telemetry: openTelemetry({ tracerProvider }),
    }),
  };
  worker = startWorkerBin('telemetry/fixtures/notifier-agents.ts', {
    NATS_URL: inject('natsUrl'),
    INTERLUDE_QUEUE: queue,
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: receiver.tracesUrl,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_TRACES_SAMPLER: 'parentbased_always_off',
    OTEL_SERVICE_NAME: 'notify-worker',
  });
  await worker.waitForLine(/^interlude-worker: ready: /, 30_000);
}, 60_000);

afterAll(async () => {
  worker?.process.kill('SIGTERM');
  await worker?.exited;
  await runtime?.close();
  await answering?.runtime.close();
  await answering?.tracerProvider.shutdown();
  await tracing.shutdown();
  await receiver?.close();
});

it("honours OTEL_EXPORTER_OTLP_TRACES_ENDPOINT alone, OTEL_EXPORTER_OTLP_PROTOCOL=http/json and OTEL_TRACES_SAMPLER; a queued run that pauses keeps its caller's conversation after its answer", async () => {
  const notifier = defineNotifier(runtime);
  const announcer = defineAnnouncer(runtime, []);
  // Jobs queued from a dispatcher's tool: its caller's trace is sampled, and it has a conversation.
  let queuedFromTool = '';
  let queuedToPause = '';
  const notify = tool({
    name: 'notify_customer',
    description: 'Tell the customer, in the background',
    input: z.object({}),
    async run() {
      queuedFromTool = (await notifier.send({ caseId: 9 }).generateLater({ queue })).generationId;
      queuedToPause = (await announcer.announce({ caseId: 9 }).generateLater({ queue })).generationId;
      return { queued: true };
    },
  });
  const dispatcher = defineAgent({
    name: 'dispatcher',
    runtime,
    provider: scriptedProvider([
      { toolCalls: [{ id: 'call_notify', name: 'notify_customer', arguments: {} }] },
      { text: 'Queued.' },
    ]),
    conversationId: () => 'case-9',
    actions: { handle: () => ({ message: 'Case 9 moved', tools: [notify] }) },
  });
  await dispatcher.handle().generateNow();
  // A job queued from no trace at all: a root the sampler leaves out.
  const { generationId: queuedBare } = await notifier.send({ caseId: 10 }).generateLater({ queue });
  const lastEvent = async (generationId: string) => (await runtime.bus.events(generationId)).at(-1)?.event;
  await waitUntil(
    async () =>
      (await lastEvent(queuedFromTool)) === 'completed' &&
      (await lastEvent(queuedBare)) === 'completed' &&
      (await lastEvent(queuedToPause)) === 'input_requested',
    'the three jobs',
    { timeoutMs: 30_000, progress: () => worker.errors() },
  );
  // The paused one is answered from a third runtime, outside any generation and any trace: it
  // resumes there, from the checkpoint the worker stored.
  defineAnnouncer(answering.runtime, [{ text: 'Posted.' }]);
  const answered = await answering.runtime.answer(queuedToPause, { call_post: true });
  expect(answered.status).toBe('completed');
  await answering.tracerProvider.forceFlush();
  // The bin batches: what it recorded has gone out once it exited on SIGTERM.
  worker.process.kill('SIGTERM');
  expect(await worker.exited).toBe(0);

  // Only traces, to the traces endpoint as given, as OTLP/JSON.
  const exports = receiver.exportsReceived();
  expect(exports.length).toBeGreaterThan(0);
  for (const received of exports) {
    expect(received).toMatchObject({ path: '/v1/traces', contentType: expect.stringMatching(/^application\/json/) });
  }
  // The sampled jobs' runs, in their caller's trace under the tool that queued them and in its
  // conversation; of the root job, nothing.
  const spans = receiver.spans();
  const from = (service: string) => spans.filter((span) => span.resource['service.name'] === service);
  const names = (service: string) => from(service).map((span) => span.name);
  expect(names('notify-worker').sort()).toEqual([
    'chat scripted-1',
    'chat scripted-1',
    'execute_tool post_notice',
    'invoke_agent announcer',
    'invoke_agent notifier',
  ]);
  const toolSpan = tracing.finishedSpans().find((span) => span.name === 'execute_tool notify_customer')!;
  const root = spans.find((span) => span.name === 'invoke_agent notifier')!;
  expect(root.attributes[semconv.ATTR_INTERLUDE_GENERATION_ID]).toBe(queuedFromTool);
  expect(root.traceId).toBe(toolSpan.spanContext().traceId);
  expect(root.parentSpanId).toBe(toolSpan.spanContext().spanId);
  // The answered half, in the third runtime: a root of its own linked to the paused one.
  expect(names('notify-answers').sort()).toEqual([
    'chat scripted-1',
    'execute_tool post_notice',
    'invoke_agent announcer',
  ]);
  const [pausedRoot, answeredRoot] = ['notify-worker', 'notify-answers'].map(
    (service) => from(service).find((span) => span.name === 'invoke_agent announcer')!,
  );
  expect(answeredRoot?.attributes[semconv.ATTR_INTERLUDE_GENERATION_ID]).toBe(queuedToPause);
  expect(answeredRoot?.links).toEqual([{ traceId: pausedRoot?.traceId, spanId: pausedRoot?.spanId, attributes: {} }]);
  // Every span of both halves of the paused run, and of the other, in the dispatcher's conversation.
  expect(spans).toHaveLength(8);
  for (const span of spans)
    expect([span.name, span.attributes[ATTR_GEN_AI_CONVERSATION_ID]]).toEqual([span.name, 'case-9']);
}, 60_000);
