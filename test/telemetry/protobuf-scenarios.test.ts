import { SemanticConventions as OI, OpenInferenceSpanKind } from '@arizeai/openinference-semantic-conventions';
import { createRuntime, defineAgent, delegate, InputRequest, tool } from '@interlude/core';
import { type RecordedModelRequest, scriptedProvider, secretFormsIn, secretInEveryForm } from '@interlude/core/testing';
import { openTelemetry, secretScrubbingProcessor } from '@interlude/telemetry';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_OUTPUT_MESSAGES,
  ATTR_GEN_AI_REQUEST_MAX_TOKENS,
  ATTR_GEN_AI_REQUEST_TEMPERATURE,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_NAME,
  EVENT_EXCEPTION,
} from '@opentelemetry/semantic-conventions/incubating';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from '../support/otlp-receiver.js';

// What the OTLP/protobuf exporter sends for a delegation paused and resumed, for a tool that
// fails, and for a secret answer with content capture on, as the test's own receiver decodes it,
// held against the conventions' constants.
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

it('a secret answer with content capture on: no form of it in any exported span, attribute or event', async () => {
  const CANARY = 'canary-5b81e2-otlp-q7vz';
  const runtime = createRuntime({ telemetry: telemetry() });
  // A careless tool: handed the secret, it returns it in every form it can be written in.
  const unlock = tool({
    name: 'unlock_account',
    description: 'Unlocks the account with a recovery code',
    input: z.object({}),
    run: (_input, ctx) =>
      ctx.answer === undefined ? InputRequest.secret('Recovery code?') : secretInEveryForm(String(ctx.answer)),
  });
  const note = tool({
    name: 'add_note',
    description: 'Adds a note to the ticket',
    input: z.object({ text: z.string() }),
    run: ({ text }) => {
      throw new Error(`note refused: ${text}`);
    },
  });
  // A model that repeats the secret: in a tool call's arguments, then in its answer.
  const provider = Object.assign(
    scriptedProvider([
      { toolCalls: [{ id: 'call_unlock', name: 'unlock_account', arguments: {} }] },
      { toolCalls: [{ id: 'call_note', name: 'add_note', arguments: { text: `code was ${CANARY}` } }] },
      { text: `Unlocked with ${CANARY}.` },
    ]),
    { requestParameters: { temperature: 0.2, maxTokens: 512 } },
  );
  const support = defineAgent({
    name: 'support',
    runtime,
    provider,
    instructions: 'You unlock accounts.',
    actions: { handle: () => ({ message: 'Unlock my account', tools: [unlock, note] }) },
  });
  const paused = await support.handle({}).generateNow();
  const done = await support.handle({}).resumeNow({ checkpoint: paused.checkpoint, answers: { call_unlock: CANARY } });
  expect(done.status).toBe('completed');
  const spans = await exported();

  // Every path the secret could take was taken and exported, scrubbed…
  const unlocked = spans.find(
    (span) => span.name === 'execute_tool unlock_account' && span.attributes[ATTR_GEN_AI_TOOL_CALL_RESULT],
  );
  expect(String(unlocked?.attributes[ATTR_GEN_AI_TOOL_CALL_RESULT])).toContain(
    '"as_typed":"token [FILTERED] accepted"',
  );
  const noted = spans.find((span) => span.name === 'execute_tool add_note')!;
  expect(noted.attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS]).toBe('{"text":"code was [FILTERED]"}');
  expect(noted.events[0]?.attributes['exception.message']).toBe('note refused: code was [FILTERED]');
  const lastChat = spans.filter((span) => span.name.startsWith('chat')).at(-1)!;
  expect(String(lastChat.attributes[ATTR_GEN_AI_OUTPUT_MESSAGES])).toContain('Unlocked with [FILTERED].');
  expect(String(lastChat.attributes[ATTR_GEN_AI_INPUT_MESSAGES])).toContain('token [FILTERED] accepted');
  expect(lastChat.attributes[`${OI.LLM_OUTPUT_MESSAGES}.0.${OI.MESSAGE_CONTENT}`]).toBe('Unlocked with [FILTERED].');
  // …with the request parameters the adapter sent, on every model call…
  expect(lastChat.attributes).toMatchObject({
    [ATTR_GEN_AI_REQUEST_TEMPERATURE]: 0.2,
    [ATTR_GEN_AI_REQUEST_MAX_TOKENS]: 512,
  });
  expect(JSON.parse(String(lastChat.attributes[OI.LLM_INVOCATION_PARAMETERS]))).toEqual({
    temperature: 0.2,
    maxTokens: 512,
  });
  // …and no form of the secret (as typed, any case, escaped, encoded, 8 characters of it in a row)
  // is in any span as decoded, nor in any byte the exporter sent.
  const decoded = JSON.stringify(
    spans.map(({ name, attributes, events, links, status }) => ({ name, attributes, events, links, status })),
  );
  expect(secretFormsIn(decoded, CANARY)).toEqual([]);
  for (const { body } of receiver.exportsReceived()) expect(secretFormsIn(body.toString('utf8'), CANARY)).toEqual([]);
  await runtime.close();
});
