import { SemanticConventions as OI, OpenInferenceSpanKind } from '@arizeai/openinference-semantic-conventions';
import { createRuntime, defineAgent, tool } from '@interlude/core';
import { anthropic } from '@interlude/providers/anthropic';
import { anthropicReply, createWireServer, type WireServer } from '@interlude/providers/testing';
import { openTelemetry } from '@interlude/telemetry';
import { context, propagation, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import {
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_OUTPUT_MESSAGES,
  ATTR_GEN_AI_REQUEST_MAX_TOKENS,
  ATTR_GEN_AI_REQUEST_STREAM,
  ATTR_GEN_AI_SYSTEM_INSTRUCTIONS,
  ATTR_GEN_AI_TOOL_DEFINITIONS,
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

async function run(options: { sdkSpans?: boolean; stream?: boolean; content?: boolean }): Promise<ReceivedSpan[]> {
  queueReplies();
  const content = options.content === true && { captureContent: true, openInference: true };
  const support = defineAgent({
    name: 'support',
    runtime: createRuntime({ telemetry: openTelemetry({ sdkSpans: options.sdkSpans, ...content }) }),
    provider: anthropic({ model: 'claude-sonnet-5-5', apiKey: 'test-key', baseURL: server.url }),
    instructions: 'You handle refunds.',
    conversationId: () => 'ticket-42',
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

const json = (value: unknown) => JSON.parse(String(value)) as unknown;

it('counts them once in a streamed run too, which says it streamed and carries the conversation, in both namings', async () => {
  const spans = await run({ stream: true, content: true });
  expect(tokensSummed(spans)).toEqual({ input: 40, output: 20 });
  const ours = spans.filter((span) => span.scope === '@interlude/telemetry');
  expect(ours).toHaveLength(4);
  for (const span of ours) {
    expect(span.attributes[ATTR_GEN_AI_CONVERSATION_ID]).toBe('ticket-42');
    expect(span.attributes[OI.SESSION_ID]).toBe('ticket-42');
  }
  const [askRefund, answer] = spans.filter((span) => span.name.startsWith('chat'));
  for (const chat of [askRefund!, answer!]) {
    expect(chat.attributes).toMatchObject({
      [ATTR_GEN_AI_REQUEST_STREAM]: true,
      [ATTR_GEN_AI_REQUEST_MAX_TOKENS]: 4096,
      [OI.OPENINFERENCE_SPAN_KIND]: OpenInferenceSpanKind.LLM,
      [OI.LLM_MODEL_NAME]: 'claude-sonnet-5-5',
      [OI.LLM_PROVIDER]: 'anthropic',
      [OI.LLM_TOKEN_COUNT_PROMPT]: 20,
      [OI.LLM_TOKEN_COUNT_COMPLETION]: 10,
      [OI.LLM_TOKEN_COUNT_TOTAL]: 30,
    });
    expect(json(chat.attributes[OI.LLM_INVOCATION_PARAMETERS])).toEqual({ maxTokens: 4096 });
    expect(json(chat.attributes[ATTR_GEN_AI_SYSTEM_INSTRUCTIONS])).toEqual([
      { type: 'text', content: 'You handle refunds.' },
    ]);
    expect(json(chat.attributes[ATTR_GEN_AI_TOOL_DEFINITIONS])).toEqual([
      expect.objectContaining({ type: 'function', name: 'issue_refund', description: 'Refunds an order' }),
    ]);
    expect(json(chat.attributes[`${OI.LLM_TOOLS}.0.${OI.TOOL_JSON_SCHEMA}`])).toMatchObject({
      type: 'function',
      function: { name: 'issue_refund' },
    });
    // OpenInference's messages: the instructions first, then what was sent.
    expect(chat.attributes).toMatchObject({
      [`${OI.LLM_INPUT_MESSAGES}.0.${OI.MESSAGE_ROLE}`]: 'system',
      [`${OI.LLM_INPUT_MESSAGES}.0.${OI.MESSAGE_CONTENT}`]: 'You handle refunds.',
      [`${OI.LLM_INPUT_MESSAGES}.1.${OI.MESSAGE_ROLE}`]: 'user',
      [`${OI.LLM_INPUT_MESSAGES}.1.${OI.MESSAGE_CONTENT}`]: 'Refund order 42',
    });
  }
  // The streamed answers, assembled: the tool call, then the text.
  expect(json(askRefund!.attributes[ATTR_GEN_AI_OUTPUT_MESSAGES])).toEqual([
    {
      role: 'assistant',
      parts: [{ type: 'tool_call', id: 'toolu_1', name: 'issue_refund', arguments: { order_id: 42 } }],
      finish_reason: 'tool_use',
    },
  ]);
  expect(askRefund!.attributes).toMatchObject({
    [`${OI.LLM_OUTPUT_MESSAGES}.0.${OI.MESSAGE_ROLE}`]: 'assistant',
    [`${OI.LLM_OUTPUT_MESSAGES}.0.${OI.MESSAGE_TOOL_CALLS}.0.${OI.TOOL_CALL_ID}`]: 'toolu_1',
    [`${OI.LLM_OUTPUT_MESSAGES}.0.${OI.MESSAGE_TOOL_CALLS}.0.${OI.TOOL_CALL_FUNCTION_NAME}`]: 'issue_refund',
    [`${OI.LLM_OUTPUT_MESSAGES}.0.${OI.MESSAGE_TOOL_CALLS}.0.${OI.TOOL_CALL_FUNCTION_ARGUMENTS_JSON}`]:
      '{"order_id":42}',
  });
  expect(json(answer!.attributes[ATTR_GEN_AI_INPUT_MESSAGES])).toContainEqual({
    role: 'tool',
    parts: [{ type: 'tool_call_response', id: 'toolu_1', response: '{"refunded":30}' }],
  });
  expect(answer!.attributes).toMatchObject({
    [`${OI.LLM_INPUT_MESSAGES}.3.${OI.MESSAGE_ROLE}`]: 'tool',
    [`${OI.LLM_INPUT_MESSAGES}.3.${OI.MESSAGE_TOOL_CALL_ID}`]: 'toolu_1',
    [`${OI.LLM_OUTPUT_MESSAGES}.0.${OI.MESSAGE_CONTENT}`]: 'Refunded.',
  });
  expect(json(answer!.attributes[ATTR_GEN_AI_OUTPUT_MESSAGES])).toEqual([
    { role: 'assistant', parts: [{ type: 'text', content: 'Refunded.' }], finish_reason: 'end_turn' },
  ]);
  // The root: the generation's input and final answer.
  const root = spans.find((span) => span.name === 'invoke_agent support')!;
  expect(json(root.attributes[ATTR_GEN_AI_INPUT_MESSAGES])).toEqual([
    { role: 'user', parts: [{ type: 'text', content: 'Refund order 42' }] },
  ]);
  expect(json(root.attributes[ATTR_GEN_AI_OUTPUT_MESSAGES])).toEqual([
    { role: 'assistant', parts: [{ type: 'text', content: 'Refunded.' }], finish_reason: 'completed' },
  ]);
  expect(root.attributes).toMatchObject({
    [OI.OPENINFERENCE_SPAN_KIND]: OpenInferenceSpanKind.AGENT,
    [OI.AGENT_NAME]: 'support',
    [OI.INPUT_VALUE]: 'Refund order 42',
    [OI.OUTPUT_VALUE]: 'Refunded.',
  });
});

it('keeps the SDK’s spans, as children of `chat`, with `sdkSpans: true` (and a sum over every span then counts twice)', async () => {
  const spans = await run({ sdkSpans: true });
  const sdk = spans.filter((span) => span.scope === 'com.anthropic.sdk.typescript');
  expect(sdk.map((span) => span.name)).toEqual(['anthropic.messages.create', 'anthropic.messages.create']);
  const chatIds = new Set(spans.filter((span) => span.name.startsWith('chat')).map((span) => span.spanId));
  for (const span of sdk) expect(chatIds.has(span.parentSpanId!)).toBe(true);
  expect(tokensSummed(spans).output).toBe(40);
});
