import { natsBus } from '@interlude/bus';
import { createRuntime, defineAgent, type Runtime, tool } from '@interlude/core';
import { scriptedProvider } from '@interlude/core/testing';
import { openTelemetry, semconv } from '@interlude/telemetry';
import { createInMemoryTracing } from '@interlude/telemetry/testing';
import { ATTR_GEN_AI_CONVERSATION_ID } from '@opentelemetry/semantic-conventions/incubating';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { type OtlpReceiver, startOtlpReceiver } from '../support/otlp-receiver.js';
import { waitUntil } from '../support/reliability-wait.js';
import { startWorkerBin, type WorkerBin } from '../support/worker-bin-process.js';
import { defineNotifier } from './fixtures/notifier-agents.js';

// One `interlude-worker` run for the standard variables worker-bin-trace.test.ts leaves at their
// defaults: a traces endpoint alone (so no metrics go out), OTLP/JSON, and a sampler that records
// a job's run only when its caller's trace was sampled.
let receiver: OtlpReceiver;
let runtime: Runtime;
let worker: WorkerBin;
const tracing = createInMemoryTracing();
const queue = `otel-vars-${process.pid}-${Date.now().toString(36)}`;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  runtime = createRuntime({
    bus: natsBus({ servers: inject('natsUrl'), name: 'otel-vars-web' }),
    telemetry: openTelemetry({ tracerProvider: tracing.tracerProvider }),
  });
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
  await tracing.shutdown();
  await receiver?.close();
});

it('honours OTEL_EXPORTER_OTLP_TRACES_ENDPOINT alone, OTEL_EXPORTER_OTLP_PROTOCOL=http/json and OTEL_TRACES_SAMPLER', async () => {
  const notifier = defineNotifier(runtime);
  // A job queued from a dispatcher's tool: its caller's trace is sampled, and it has a conversation.
  let queuedFromTool = '';
  const notify = tool({
    name: 'notify_customer',
    description: 'Tell the customer, in the background',
    input: z.object({}),
    async run() {
      queuedFromTool = (await notifier.send({ caseId: 9 }).generateLater({ queue })).generationId;
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
  const completed = async (generationId: string) =>
    (await runtime.bus.events(generationId)).at(-1)?.event === 'completed';
  await waitUntil(async () => (await completed(queuedFromTool)) && (await completed(queuedBare)), 'both jobs', {
    timeoutMs: 30_000,
    progress: () => worker.errors(),
  });
  // The bin batches: what it recorded has gone out once it exited on SIGTERM.
  worker.process.kill('SIGTERM');
  expect(await worker.exited).toBe(0);

  // Only traces, to the traces endpoint as given, as OTLP/JSON.
  const exports = receiver.exportsReceived();
  expect(exports.length).toBeGreaterThan(0);
  for (const received of exports) {
    expect(received).toMatchObject({ path: '/v1/traces', contentType: expect.stringMatching(/^application\/json/) });
  }
  // The sampled job's run, in its caller's trace under the tool that queued it and in its
  // conversation; of the root job, nothing.
  const spans = receiver.spans();
  expect(spans.map((span) => span.name).sort()).toEqual(['chat scripted-1', 'invoke_agent notifier']);
  const toolSpan = tracing.finishedSpans().find((span) => span.name === 'execute_tool notify_customer')!;
  const root = spans.find((span) => span.name === 'invoke_agent notifier')!;
  expect(root.attributes[semconv.ATTR_INTERLUDE_GENERATION_ID]).toBe(queuedFromTool);
  expect(root.traceId).toBe(toolSpan.spanContext().traceId);
  expect(root.parentSpanId).toBe(toolSpan.spanContext().spanId);
  for (const span of spans) {
    expect(span.resource['service.name']).toBe('notify-worker');
    expect(span.attributes[ATTR_GEN_AI_CONVERSATION_ID]).toBe('case-9');
  }
}, 60_000);
