import { SemanticConventions as OI, OpenInferenceSpanKind } from '@arizeai/openinference-semantic-conventions';
import { natsBus } from '@interlude/bus';
import { createRuntime, type Runtime } from '@interlude/core';
import { createRefundScenario } from '@interlude/core/testing';
import { openTelemetry, secretScrubbingProcessor, semconv } from '@interlude/telemetry';
import { context, propagation, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import {
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_OUTPUT_MESSAGES,
  ATTR_GEN_AI_REQUEST_STREAM,
  ATTR_GEN_AI_SYSTEM_INSTRUCTIONS,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_DEFINITIONS,
} from '@opentelemetry/semantic-conventions/incubating';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from '../support/otlp-receiver.js';
import { waitUntil } from '../support/reliability-wait.js';
import { startWorkerBin, type WorkerBin } from '../support/worker-bin-process.js';
import { REFUND_GENAI_MESSAGES } from './fixtures/refund-genai-messages.js';
import { defineSupport } from './fixtures/support-agent.js';

// A web process (this one) pauses a refund; `interlude-worker`, configured only through the
// standard OpenTelemetry variables, resumes it. Both export OTLP/protobuf to the test's receiver.
let receiver: OtlpReceiver;
let tracerProvider: NodeTracerProvider;
let runtime: Runtime;
let worker: WorkerBin;
const queue = `traced-${process.pid}-${Date.now().toString(36)}`;
// A deployment of its own on the shared server: the worker's gauge of questions waiting reads
// this deployment's pending view, which no other file's pauses reach.
const prefix = `traced${process.pid.toString(36)}${Date.now().toString(36)}`;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  tracerProvider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'support-web' }),
    spanProcessors: [
      secretScrubbingProcessor(),
      new SimpleSpanProcessor(new OTLPTraceExporter({ url: receiver.tracesUrl })),
    ],
  });
  // Registered, as an application's tracing setup does: the context manager carries the caller's span.
  tracerProvider.register();
  runtime = createRuntime({
    bus: natsBus({ servers: inject('natsUrl'), name: 'traced-web', prefix }),
    telemetry: openTelemetry({ tracerProvider, captureContent: true, openInference: true }),
  });
  worker = startWorkerBin('telemetry/fixtures/traced-worker-agents.ts', {
    NATS_URL: inject('natsUrl'),
    INTERLUDE_QUEUE: queue,
    INTERLUDE_PREFIX: prefix,
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
    OTEL_SERVICE_NAME: 'support-worker',
    OTEL_TRACES_SAMPLER: 'parentbased_always_on',
    OTEL_METRIC_EXPORT_INTERVAL: '200',
    OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true',
    INTERLUDE_OPENINFERENCE: '1',
  });
  await worker.waitForLine(/^interlude-worker: ready: /, 30_000);
}, 60_000);

afterAll(async () => {
  worker?.process.kill('SIGTERM');
  await worker?.exited;
  await tracerProvider?.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
  await runtime?.close();
  await receiver?.close();
});

it("puts the worker bin's resumed run in the caller's trace, in the same conversation as the paused run", async () => {
  const support = defineSupport(runtime, createRefundScenario().replies);
  const paused = await support.handle({ ticketId: 42 }).generateNow();
  // The worker, which never saw this pause, reports its question waiting: read from the pending view.
  const waitingInWorker = (value: number, after = 0) =>
    waitUntil(
      async () =>
        receiver
          .metricPoints()
          .slice(after)
          .some(
            (point) =>
              point.name === semconv.METRIC_INTERLUDE_INPUT_REQUESTS_WAITING &&
              point.resource['service.name'] === 'support-worker' &&
              point.attributes[ATTR_GEN_AI_AGENT_NAME] === 'support' &&
              point.value === value,
          ),
      `the worker's gauge at ${value}`,
      { timeoutMs: 15_000 },
    );
  await waitingInWorker(1);
  const beforeResume = receiver.metricPoints().length;
  // The caller resumes from inside its own span (a request handler): the job carries its traceparent.
  const caller = tracerProvider.getTracer('web').startSpan('POST /tickets/42/approve');
  await context.with(
    trace.setSpan(context.active(), caller),
    () =>
      trace.getTracer('unused') &&
      support.handle({ ticketId: 42 }).resumeLater({
        checkpoint: paused.checkpoint,
        answers: { call_refund: true },
        queue,
      }),
  );
  caller.end();

  const workerRoot = (spans: ReceivedSpan[]) =>
    spans.find((span) => span.resource['service.name'] === 'support-worker' && span.name === 'invoke_agent support');
  await waitUntil(
    async () => workerRoot(receiver.spans())?.attributes['interlude.outcome'] === 'completed',
    "the worker's root span",
    {
      timeoutMs: 30_000,
      progress: () => worker.errors(),
    },
  );
  // The bin exports the GenAI client metrics with its own: the resumed run's one model call; and
  // the question, answered, no longer waits.
  const fromWorker = (name: string, attributes: Record<string, unknown> = {}) =>
    receiver.waitForMetric(
      (point) =>
        point.name === name &&
        point.resource['service.name'] === 'support-worker' &&
        Object.entries(attributes).every(([key, value]) => point.attributes[key] === value),
      15_000,
    );
  expect(await fromWorker('gen_ai.client.token.usage', { 'gen_ai.token.type': 'input' })).toMatchObject({
    kind: 'histogram',
    count: 1,
    sum: 10,
    attributes: { 'gen_ai.provider.name': 'scripted', 'gen_ai.request.model': 'scripted-1' },
  });
  expect(await fromWorker('gen_ai.client.operation.duration')).toMatchObject({ kind: 'histogram', count: 1 });
  await waitingInWorker(0, beforeResume);
  // The bin batches: its spans all arrive by the time it has flushed on SIGTERM.
  worker.process.kill('SIGTERM');
  expect(await worker.exited).toBe(0);
  const spans = receiver.spans();
  const root = workerRoot(spans)!;
  const pausedRoot = spans.find(
    (span) => span.resource['service.name'] === 'support-web' && span.name === 'invoke_agent support',
  )!;
  const callerSpan = spans.find((span) => span.name === 'POST /tickets/42/approve')!;

  // The worker's run: in the caller's trace, under the caller's span, linked to the paused run.
  expect(root.traceId).toBe(callerSpan.traceId);
  expect(root.parentSpanId).toBe(callerSpan.spanId);
  expect(root.links).toEqual([{ traceId: pausedRoot.traceId, spanId: pausedRoot.spanId, attributes: {} }]);
  expect(root.resource['service.name']).toBe('support-worker');
  const workerSpans = spans.filter((span) => span.resource['service.name'] === 'support-worker');
  expect(workerSpans.map((span) => span.name).sort()).toEqual([
    'chat scripted-1',
    'execute_tool issue_refund',
    'invoke_agent support',
  ]);
  // Both processes sent their traces as OTLP/protobuf (the bin's metrics go as OTLP/JSON).
  const traceExports = receiver.exportsReceived().filter((received) => received.path === '/v1/traces');
  expect(new Set(traceExports.map((received) => received.contentType))).toEqual(new Set(['application/x-protobuf']));

  // Both halves, both processes: one conversation; the GenAI content and OpenInference names on each.
  const ours = spans.filter((span) => span.scope === '@interlude/telemetry');
  expect(ours).toHaveLength(7);
  for (const span of ours) {
    expect(span.attributes[ATTR_GEN_AI_CONVERSATION_ID]).toBe('ticket-42');
    expect(span.attributes[OI.SESSION_ID]).toBe('ticket-42');
  }
  expect(root.attributes[ATTR_GEN_AI_AGENT_NAME]).toBe('support');
  expect(JSON.parse(String(root.attributes[ATTR_GEN_AI_INPUT_MESSAGES]))).toEqual(REFUND_GENAI_MESSAGES.input);
  expect(JSON.parse(String(root.attributes[ATTR_GEN_AI_OUTPUT_MESSAGES]))).toEqual([
    { role: 'assistant', parts: [{ type: 'text', content: 'Done.' }], finish_reason: 'completed' },
  ]);
  expect(root.attributes[OI.OUTPUT_VALUE]).toBe('Done.');
  const chat = workerSpans.find((span) => span.name === 'chat scripted-1')!;
  expect(chat.attributes[ATTR_GEN_AI_REQUEST_STREAM]).toBe(false);
  expect(String(chat.attributes[ATTR_GEN_AI_TOOL_DEFINITIONS])).toContain('"name":"issue_refund"');
  expect(JSON.parse(String(chat.attributes[ATTR_GEN_AI_INPUT_MESSAGES]))).toContainEqual({
    role: 'tool',
    parts: [
      { type: 'tool_call_response', id: 'call_lookup', response: expect.any(String) },
      { type: 'tool_call_response', id: 'call_refund', response: '{"refunded":30}' },
    ],
  });
  expect(chat.attributes[OI.OPENINFERENCE_SPAN_KIND]).toBe(OpenInferenceSpanKind.LLM);
  const tool = workerSpans.find((span) => span.name === 'execute_tool issue_refund')!;
  expect(tool.attributes[ATTR_GEN_AI_TOOL_CALL_RESULT]).toBe('{"refunded":30}');

  // The paused half, in this process: the question asked, the content up to it.
  const json = (value: unknown) => JSON.parse(String(value)) as unknown;
  const instructions = [{ type: 'text', content: 'You resolve support tickets.' }];
  expect(pausedRoot.attributes).toMatchObject({
    [semconv.ATTR_AGENT_AWAITING_INPUT]: true,
    [OI.OPENINFERENCE_SPAN_KIND]: OpenInferenceSpanKind.AGENT,
    [OI.INPUT_VALUE]: 'Resolve support ticket 42',
  });
  expect(json(pausedRoot.attributes[ATTR_GEN_AI_INPUT_MESSAGES])).toEqual(REFUND_GENAI_MESSAGES.input);
  expect(json(pausedRoot.attributes[ATTR_GEN_AI_SYSTEM_INSTRUCTIONS])).toEqual(instructions);
  expect(pausedRoot.attributes).not.toHaveProperty(ATTR_GEN_AI_OUTPUT_MESSAGES);
  const pausedChat = spans.find((span) => span.name === 'chat scripted-1' && span.traceId === pausedRoot.traceId)!;
  expect(json(pausedChat.attributes[ATTR_GEN_AI_SYSTEM_INSTRUCTIONS])).toEqual(instructions);
  expect(json(pausedChat.attributes[ATTR_GEN_AI_OUTPUT_MESSAGES])).toEqual(REFUND_GENAI_MESSAGES.firstAnswer);
  expect(pausedChat.attributes).toMatchObject({
    [`${OI.LLM_INPUT_MESSAGES}.0.${OI.MESSAGE_ROLE}`]: 'system',
    [`${OI.LLM_INPUT_MESSAGES}.0.${OI.MESSAGE_CONTENT}`]: 'You resolve support tickets.',
    [`${OI.LLM_INPUT_MESSAGES}.1.${OI.MESSAGE_CONTENT}`]: 'Resolve support ticket 42',
    [`${OI.LLM_OUTPUT_MESSAGES}.0.${OI.MESSAGE_TOOL_CALLS}.1.${OI.TOOL_CALL_FUNCTION_NAME}`]: 'issue_refund',
  });
  // The resumed call is sent the same instructions, from the other process.
  expect(json(chat.attributes[ATTR_GEN_AI_SYSTEM_INSTRUCTIONS])).toEqual(instructions);
  const refundAsked = spans.find(
    (span) => span.name === 'execute_tool issue_refund' && span.traceId === pausedRoot.traceId,
  )!;
  expect(refundAsked.attributes).toMatchObject({
    [semconv.ATTR_AGENT_AWAITING_INPUT]: true,
    [ATTR_GEN_AI_TOOL_CALL_ARGUMENTS]: '{"order_id":42,"amount":30}',
  });
}, 60_000);
