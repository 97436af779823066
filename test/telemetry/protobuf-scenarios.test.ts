import { SemanticConventions as OI, OpenInferenceSpanKind } from '@arizeai/openinference-semantic-conventions';
import { createRuntime, defineAgent, delegate, InputRequest, tool } from '@interlude/core';
import { type RecordedModelRequest, scriptedProvider } from '@interlude/core/testing';
import { openTelemetry, secretScrubbingProcessor } from '@interlude/telemetry';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_NAME,
  EVENT_EXCEPTION,
} from '@opentelemetry/semantic-conventions/incubating';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from '../support/otlp-receiver.js';

// What the OTLP/protobuf exporter sends for a delegation paused and resumed, and for a tool that
// fails, as the test's own receiver decodes it, held against the conventions' constants.
let receiver: OtlpReceiver;
let tracerProvider: BasicTracerProvider;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
  tracerProvider = new BasicTracerProvider({
    spanProcessors: [
      secretScrubbingProcessor(),
      new SimpleSpanProcessor(new OTLPTraceExporter({ url: receiver.tracesUrl })),
    ],
  });
});
afterEach(() => receiver.clear());
afterAll(async () => {
  await tracerProvider.shutdown();
  await receiver.close();
});

const telemetry = () => openTelemetry({ tracerProvider, captureContent: true, openInference: true });
const hasResult = (request: RecordedModelRequest, callId: string) =>
  JSON.stringify(request.messages).includes(`"tool_use_id":"${callId}"`);

/** A model that calls `name` once, then ends. */
function model(id: string, name: string, args: unknown) {
  return scriptedProvider(
    Array.from(
      { length: 10 },
      () => (request: RecordedModelRequest) =>
        hasResult(request, id) ? { text: 'Done.' } : { toolCalls: [{ id, name, arguments: args }] },
    ),
  );
}

async function exported(): Promise<ReceivedSpan[]> {
  await tracerProvider.forceFlush();
  return receiver.spans().filter((span) => span.scope === '@interlude/telemetry');
}

it('a delegation paused and resumed: every span of both agents in both halves in the parent’s conversation', async () => {
  const runtime = createRuntime({ telemetry: telemetry() });
  const payOut = tool({
    name: 'pay_out',
    description: 'Pay out',
    input: z.object({ amount: z.number() }),
    run: (_input, ctx) => (ctx.answer === undefined ? InputRequest.confirm('Pay out $30?') : { paid: 30 }),
  });
  const payments = defineAgent({
    name: 'payments',
    runtime,
    provider: model('call_payout', 'pay_out', { amount: 30 }),
    actions: { pay: () => ({ message: 'Pay', tools: [payOut] }) },
  });
  const triage = defineAgent({
    name: 'triage',
    runtime,
    provider: model('call_pay', 'payments_pay', {}),
    conversationId: ({ ticketId }: { ticketId: number }) => `ticket-${ticketId}`,
    actions: {
      handle: ({ ticketId }: { ticketId: number }) => ({
        message: `Triage ticket ${ticketId}`,
        tools: [delegate(payments, 'pay', { description: 'Pay', onExceeded: 'pause' })],
      }),
    },
  });
  const paused = await triage.handle({ ticketId: 7 }).generateNow();
  await triage.handle({ ticketId: 7 }).resumeNow({
    checkpoint: JSON.parse(JSON.stringify(paused.checkpoint)),
    answers: { 'call_pay/call_payout': true },
  });
  const spans = await exported();

  const names = spans.map((span) => span.name);
  expect(names.filter((name) => name === 'invoke_agent payments')).toHaveLength(2);
  expect(names.filter((name) => name === 'invoke_agent triage')).toHaveLength(2);
  for (const span of spans) {
    expect(span.attributes[ATTR_GEN_AI_CONVERSATION_ID]).toBe('ticket-7');
    expect(span.attributes[OI.SESSION_ID]).toBe('ticket-7');
  }
  const delegated = spans.filter((span) => span.name === 'invoke_agent payments');
  for (const root of delegated) {
    expect(root.attributes).toMatchObject({
      [ATTR_GEN_AI_OPERATION_NAME]: 'invoke_agent',
      [ATTR_GEN_AI_AGENT_NAME]: 'payments',
      [OI.OPENINFERENCE_SPAN_KIND]: OpenInferenceSpanKind.AGENT,
      [OI.INPUT_VALUE]: 'Pay',
    });
    // Under the delegating call, in the parent's trace.
    const parent = spans.find((span) => span.spanId === root.parentSpanId)!;
    expect(parent.attributes).toMatchObject({
      [ATTR_GEN_AI_TOOL_NAME]: 'payments_pay',
      [OI.OPENINFERENCE_SPAN_KIND]: OpenInferenceSpanKind.TOOL,
    });
  }
  const payOutCall = spans.find((span) => span.name === 'execute_tool pay_out')!;
  expect(payOutCall.attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS]).toBe('{"amount":30}');
  await runtime.close();
});

it('a tool error: the call span is an error with its type and exception, and the model is sent the error', async () => {
  const runtime = createRuntime({ telemetry: telemetry() });
  const charge = tool({
    name: 'charge_card',
    description: 'Charges the card',
    input: z.object({}),
    run: () => {
      throw new RangeError('card declined');
    },
  });
  const support = defineAgent({
    name: 'support',
    runtime,
    provider: model('call_charge', 'charge_card', {}),
    actions: { handle: () => ({ message: 'Charge it', tools: [charge] }) },
  });
  const done = await support.handle({}).generateNow();
  expect(done.status).toBe('completed');
  const spans = await exported();

  const call = spans.find((span) => span.name === 'execute_tool charge_card')!;
  expect(call.status.code).toBe('ERROR');
  expect(call.attributes[ATTR_ERROR_TYPE]).toBe('RangeError');
  expect(call.events.map((event) => event.name)).toEqual([EVENT_EXCEPTION]);
  const secondChat = spans.filter((span) => span.name.startsWith('chat')).at(-1)!;
  const sent = JSON.parse(String(secondChat.attributes[ATTR_GEN_AI_INPUT_MESSAGES])) as {
    role: string;
    parts: unknown[];
  }[];
  expect(sent.at(-1)).toMatchObject({
    role: 'tool',
    parts: [{ type: 'tool_call_response', id: 'call_charge', is_error: true }],
  });
  expect(JSON.stringify(sent.at(-1))).toContain('card declined');
  await runtime.close();
});
