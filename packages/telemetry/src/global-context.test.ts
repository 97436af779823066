import { context, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openTelemetry } from './open-telemetry.js';
import { refundRunInfo } from './test-generation-info.js';
import { spanTree } from './testing/index.js';

/**
 * The usual production setup: a registered `NodeTracerProvider` and no `tracerProvider` option.
 * Registration is global, so this file undoes it afterwards.
 */
const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
beforeAll(() => provider.register());
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
});

const info = refundRunInfo;

/** A generation under a request span, whose model call's SDK starts a span of its own. */
async function tracedRequest(sdkSpans: boolean | undefined) {
  exporter.reset();
  const telemetry = openTelemetry({ sdkSpans });
  const application = trace.getTracer('app');
  await application.startActiveSpan('POST /tickets/42', async (request) => {
    const generation = telemetry.startGeneration(info);
    const chat = generation.startModelCall({ provider: 'anthropic.messages', service: 'anthropic', model: 'm' });
    await chat.runInContext(async () => {
      await Promise.resolve();
      application.startSpan('POST /v1/messages').end();
    });
    chat.end({ finishReason: 'stop' });
    generation.end({ status: 'completed' });
    request.end();
  });
  return spanTree(exporter.getFinishedSpans());
}

it("nests under the application's active span, and suppresses SDK spans under the model call", async () => {
  const [root] = await tracedRequest(undefined);
  expect(root!.name).toBe('POST /tickets/42');
  expect(root!.children[0]!.name).toBe('invoke_agent support');
  expect(root!.children[0]!.children[0]!.name).toBe('chat m');
  expect(root!.children[0]!.children[0]!.children).toEqual([]);
});

it('puts SDK spans under the model call with sdkSpans: true', async () => {
  const [root] = await tracedRequest(true);
  expect(root!.children[0]!.children[0]!.children.map((span) => span.name)).toEqual(['POST /v1/messages']);
});
