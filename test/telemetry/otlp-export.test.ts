import { openTelemetry } from '@interlude/telemetry';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type OtlpReceiver, startOtlpReceiver } from '../support/otlp-receiver.js';

let receiver: OtlpReceiver;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
});
afterAll(() => receiver.close());

/** The exporter as the README configures it: nothing in code, only the standard variables. */
function exporterFromEnvironment(variables: Record<string, string>): OTLPTraceExporter {
  const saved = Object.fromEntries(Object.keys(variables).map((name) => [name, process.env[name]]));
  Object.assign(process.env, variables);
  try {
    return new OTLPTraceExporter();
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/** The one generation this file traces, paused and then resumed. */
const refund = {
  agent: 'support',
  action: 'handle',
  generationId: 'gen_1',
  provider: 'anthropic.messages',
  model: 'claude-sonnet-4-5',
};

it('sends every span over OTLP/protobuf to the endpoint named by OTEL_EXPORTER_OTLP_ENDPOINT', async () => {
  const exporter = exporterFromEnvironment({
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_HEADERS: 'x-honeycomb-team=test-key',
  });
  const tracerProvider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'support-desk' }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  const telemetry = openTelemetry({ tracerProvider });

  const paused = telemetry.startGeneration({ ...refund, resumed: false });
  paused
    .startModelCall({ provider: 'anthropic.messages', service: 'anthropic', model: 'claude-sonnet-4-5' })
    .end({ finishReason: 'tool-calls', rawFinishReason: 'tool_use', usage: { inputTokens: 12, outputTokens: 3 } });
  paused.startToolCall({ toolName: 'issue_refund', toolCallId: 'call_1', arguments: {} }).end({ awaitingInput: true });
  paused.end({ status: 'awaiting_input' });
  const resumed = telemetry.startGeneration({ ...refund, resumed: true, linkedTraceparent: paused.traceparent });
  resumed.end({ status: 'completed' });
  await tracerProvider.forceFlush();

  const spans = await receiver.waitForSpans(4);
  const byName = (name: string) => spans.filter((span) => span.name === name);
  const [pausedRoot, resumedRoot] = byName('invoke_agent support');
  const [chat] = byName('chat claude-sonnet-4-5');
  const [tool] = byName('execute_tool issue_refund');

  expect(pausedRoot!.parentSpanId).toBeUndefined();
  expect(pausedRoot!.attributes).toMatchObject({ 'agent.awaiting_input': true, 'interlude.generation_id': 'gen_1' });
  expect(chat).toMatchObject({
    parentSpanId: pausedRoot!.spanId,
    traceId: pausedRoot!.traceId,
    kind: 'CLIENT',
    attributes: { 'gen_ai.usage.input_tokens': 12, 'gen_ai.response.finish_reasons': ['tool_use'] },
  });
  expect(tool).toMatchObject({ parentSpanId: pausedRoot!.spanId, kind: 'INTERNAL' });
  expect(resumedRoot!.parentSpanId).toBeUndefined();
  expect(resumedRoot!.attributes).not.toHaveProperty('agent.awaiting_input');
  expect(resumedRoot!.links).toEqual([{ traceId: pausedRoot!.traceId, spanId: pausedRoot!.spanId, attributes: {} }]);
  for (const span of spans) {
    expect(span.resource['service.name']).toBe('support-desk');
    expect(span.scope).toBe('@interlude/telemetry');
  }
  expect(receiver.requestHeaders()[0]).toMatchObject({
    'x-honeycomb-team': 'test-key',
    'content-type': 'application/x-protobuf',
  });
  await tracerProvider.shutdown();
});

it('refuses a protobuf body it cannot decode instead of pretending it received spans', async () => {
  receiver.clear();
  const response = await fetch(receiver.tracesUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-protobuf' },
    body: new Uint8Array([1, 2, 3]),
  });
  expect(response.status).toBe(400);
  expect(receiver.spans()).toEqual([]);
});
