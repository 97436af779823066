import { createRuntime, defineAgent, tool } from '@interlude/core';
import { anthropic } from '@interlude/providers/anthropic';
import { anthropicReply, createWireServer, type WireServer } from '@interlude/providers/testing';
import { openTelemetry } from '@interlude/telemetry';
import { context, propagation, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import {
  ATTR_GEN_AI_REQUEST_MAX_TOKENS,
  ATTR_GEN_AI_REQUEST_STREAM,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
} from '@opentelemetry/semantic-conventions/incubating';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from '../support/otlp-receiver.js';

// The setup an application has: one registered provider (global tracer, context manager,
// propagator) exporting OTLP/protobuf, and the official Anthropic SDK, which traces its own calls
// through the same (single) copy of @opentelemetry/api.
let receiver: OtlpReceiver;
let server: WireServer;
let provider: NodeTracerProvider;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
  server = await createWireServer();
  provider = new NodeTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: receiver.tracesUrl }))],
  });
  provider.register();
});
afterEach(() => receiver.clear());
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
  await server.close();
  await receiver.close();
});

const refund = tool({
  name: 'issue_refund',
  description: 'Refunds an order',
  input: z.object({ order_id: z.number() }),
  run: () => ({ refunded: 30 }),
});

/** Two model calls (ask for the refund, then answer), 20 in and 10 out each, streamed or not. */
function queueReplies(): void {
  const toolUse = {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-5-5',
    stop_reason: 'tool_use',
    usage: { input_tokens: 20, output_tokens: 10 },
    content: [{ type: 'tool_use', id: 'toolu_1', name: 'issue_refund', input: { order_id: 42 } }],
  };
  const answer = { ...toolUse, id: 'msg_2', stop_reason: 'end_turn', content: [{ type: 'text', text: 'Refunded.' }] };
  const reply = (message: unknown) => (request: { body: unknown }) =>
    anthropicReply(message as Record<string, unknown>, {
      stream: (request.body as { stream?: boolean }).stream === true,
    });
  server.enqueue('/v1/messages', reply(toolUse), reply(answer));
}

async function run(options: { sdkSpans?: boolean; stream?: boolean }): Promise<ReceivedSpan[]> {
  queueReplies();
  const support = defineAgent({
    name: 'support',
    runtime: createRuntime({ telemetry: openTelemetry({ sdkSpans: options.sdkSpans }) }),
    provider: anthropic({ model: 'claude-sonnet-5-5', apiKey: 'test-key', baseURL: server.url }),
    actions: { handle: () => ({ message: 'Refund order 42', tools: [refund] }) },
  });
  if (options.stream) {
    const stream = support.handle({}).stream();
    for await (const _part of stream);
    await stream.response;
  } else await support.handle({}).generateNow();
  await provider.forceFlush();
  return receiver.spans();
}

/** Every token an OTLP backend would add up from the spans it received. */
function tokensSummed(spans: ReceivedSpan[]) {
  const sum = (name: string) => spans.reduce((total, span) => total + Number(span.attributes[name] ?? 0), 0);
  return { input: sum(ATTR_GEN_AI_USAGE_INPUT_TOKENS), output: sum(ATTR_GEN_AI_USAGE_OUTPUT_TOKENS) };
}

it('counts the tokens of each model call once: the SDK’s own span under `chat` is suppressed', async () => {
  const spans = await run({});
  expect(spans.map((span) => span.name).sort()).toEqual([
    'chat claude-sonnet-5-5',
    'chat claude-sonnet-5-5',
    'execute_tool issue_refund',
    'invoke_agent support',
  ]);
  expect(tokensSummed(spans)).toEqual({ input: 40, output: 20 });
  // The request parameters the adapter sent (its default max_tokens), on each model call.
  for (const chat of spans.filter((span) => span.name.startsWith('chat'))) {
    expect(chat.attributes).toMatchObject({
      [ATTR_GEN_AI_REQUEST_MAX_TOKENS]: 4096,
      [ATTR_GEN_AI_REQUEST_STREAM]: false,
    });
  }
});

it('counts them once in a streamed run too, which says it streamed', async () => {
  const spans = await run({ stream: true });
  expect(tokensSummed(spans)).toEqual({ input: 40, output: 20 });
  const chats = spans.filter((span) => span.name.startsWith('chat'));
  expect(chats.map((span) => span.attributes[ATTR_GEN_AI_REQUEST_STREAM])).toEqual([true, true]);
});

it('keeps the SDK’s spans, as children of `chat`, with `sdkSpans: true` (and a sum over every span then counts twice)', async () => {
  const spans = await run({ sdkSpans: true });
  const sdk = spans.filter((span) => span.scope === 'com.anthropic.sdk.typescript');
  expect(sdk.map((span) => span.name)).toEqual(['anthropic.messages.create', 'anthropic.messages.create']);
  const chatIds = new Set(spans.filter((span) => span.name.startsWith('chat')).map((span) => span.spanId));
  for (const span of sdk) expect(chatIds.has(span.parentSpanId!)).toBe(true);
  expect(tokensSummed(spans).output).toBe(40);
});
