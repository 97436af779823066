import { createRuntime, defineAgent, InputRequest, tool } from '@interlude/core';
import { scriptedProvider, secretFormsIn } from '@interlude/core/testing';
import { openTelemetry, secretScrubbingProcessor } from '@interlude/telemetry';
import { context, propagation, SpanStatusCode, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { SimpleSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { type OtlpReceiver, startOtlpReceiver } from '../support/otlp-receiver.js';

const CANARY = 'canary-d3e1f0-7xq9zk';

let receiver: OtlpReceiver;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
});
afterAll(() => receiver.close());
afterEach(() => {
  receiver.clear();
  trace.disable();
  context.disable();
  propagation.disable();
});

/**
 * A tool that behaves like instrumented HTTP and database clients: it writes the secret it was
 * given on the active span (a header attribute, a recorded exception, a status) and starts spans
 * of its own under it (a query with the secret in its text and its events).
 */
const connect = tool({
  name: 'connect_database',
  description: 'Connect with a password',
  input: z.object({}),
  run: (_, ctx) => {
    if (ctx.answer === undefined) return InputRequest.secret('Database password?');
    const password = String(ctx.answer);
    const active = trace.getActiveSpan();
    active?.setAttribute('http.request.header.authorization', [
      `Basic ${Buffer.from(`app:${password}`).toString('base64')}`,
    ]);
    active?.recordException(new Error(`password authentication failed for ${password}`));
    trace.getTracer('pg').startActiveSpan(`SELECT ${password}`, (query) => {
      query.setAttribute('db.query.text', `SELECT 1 WHERE password = '${password}'`);
      query.addEvent('retry', { 'db.password': password });
      query.setStatus({ code: SpanStatusCode.ERROR, message: `rejected ${password}` });
      query.end();
    });
    return { connected: true };
  },
});

/** Runs the generation under a registered provider with `processors` and returns what was exported, as text. */
async function exportedText(processors: SpanProcessor[]): Promise<{ text: string; names: string[] }> {
  const provider = new NodeTracerProvider({ spanProcessors: processors });
  provider.register();
  const runtime = createRuntime({ telemetry: openTelemetry() });
  const agent = defineAgent({
    name: 'ops',
    runtime,
    provider: scriptedProvider([
      { toolCalls: [{ id: 'call_connect', name: 'connect_database', arguments: {} }] },
      { text: 'Connected.' },
    ]),
    actions: { handle: () => ({ message: 'Connect to the database', tools: [connect] }) },
  });
  const paused = await agent.handle().generateNow();
  await agent.handle().resumeNow({ checkpoint: paused.checkpoint, answers: { call_connect: CANARY } });
  await provider.forceFlush();
  const spans = receiver.spans();
  await provider.shutdown();
  return { text: JSON.stringify(spans), names: spans.map((span) => span.name) };
}

it('exports no secret from the spans a tool and the libraries it calls write inside a generation', async () => {
  const exported = await exportedText([
    secretScrubbingProcessor(),
    new SimpleSpanProcessor(new OTLPTraceExporter({ url: receiver.tracesUrl })),
  ]);
  // Every path was taken: the tool's span, the library's span under it, the recorded exception.
  expect(exported.names).toEqual(expect.arrayContaining(['execute_tool connect_database', 'SELECT [FILTERED]']));
  expect(exported.text).toContain('password authentication failed for [FILTERED]');
  expect(exported.text).toContain("SELECT 1 WHERE password = '[FILTERED]'");
  expect(exported.text).toContain('rejected [FILTERED]');
  expect(secretFormsIn(exported.text, CANARY)).toEqual([]);
});

it('exports the secret when the processor comes after the exporter: processors run in order', async () => {
  const exported = await exportedText([
    new SimpleSpanProcessor(new OTLPTraceExporter({ url: receiver.tracesUrl })),
    secretScrubbingProcessor(),
  ]);
  expect(exported.text).toContain(CANARY);
});
