import { SemanticConventions as OI, OpenInferenceSpanKind } from '@arizeai/openinference-semantic-conventions';
import { createRuntime, defineAgent } from '@interlude/core';
import { createRefundScenario, scriptedProvider } from '@interlude/core/testing';
import { openTelemetry } from '@interlude/telemetry';
import { createInMemoryTracing, spanTree } from '@interlude/telemetry/testing';
import {
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_OUTPUT_MESSAGES,
  ATTR_GEN_AI_REQUEST_STREAM,
  ATTR_GEN_AI_SYSTEM_INSTRUCTIONS,
  ATTR_GEN_AI_TOOL_DEFINITIONS,
} from '@opentelemetry/semantic-conventions/incubating';
import { afterEach, expect, it } from 'vitest';
import { REFUND_GENAI_MESSAGES } from './fixtures/refund-genai-messages.js';

const tracing = createInMemoryTracing();
afterEach(() => tracing.reset());

function defineSupport(options: { captureContent?: boolean; openInference?: boolean }) {
  const scenario = createRefundScenario();
  const runtime = createRuntime({ telemetry: openTelemetry({ tracerProvider: tracing.tracerProvider, ...options }) });
  return defineAgent({
    name: 'support',
    runtime,
    provider: scriptedProvider(scenario.replies),
    instructions: 'You resolve support tickets.',
    actions: { handle: scenario.action },
  });
}

const json = (value: unknown) => JSON.parse(String(value)) as unknown;

it('records the conversation in the GenAI structured form on the chat spans and the root, when asked', async () => {
  const support = defineSupport({ captureContent: true });
  const paused = await support.handle({ ticketId: 42 }).generateNow();
  await support.handle({ ticketId: 42 }).resumeNow({ checkpoint: paused.checkpoint, answers: { call_refund: true } });
  const [pausedRun, resumedRun] = spanTree(tracing.finishedSpans());

  const firstChat = pausedRun!.children[0]!.attributes;
  expect(json(firstChat[ATTR_GEN_AI_INPUT_MESSAGES])).toEqual(REFUND_GENAI_MESSAGES.input);
  expect(json(firstChat[ATTR_GEN_AI_SYSTEM_INSTRUCTIONS])).toEqual([
    { type: 'text', content: 'You resolve support tickets.' },
  ]);
  expect(json(firstChat[ATTR_GEN_AI_TOOL_DEFINITIONS])).toEqual([
    expect.objectContaining({ type: 'function', name: 'lookup_order', parameters: expect.any(Object) }),
    expect.objectContaining({ type: 'function', name: 'issue_refund' }),
  ]);
  expect(json(firstChat[ATTR_GEN_AI_OUTPUT_MESSAGES])).toEqual(REFUND_GENAI_MESSAGES.firstAnswer);
  expect(firstChat[ATTR_GEN_AI_REQUEST_STREAM]).toBe(false);

  // The paused root has the generation's input and no output; the resumed one its final answer.
  expect(pausedRun!.attributes[ATTR_GEN_AI_AGENT_NAME]).toBe('support');
  expect(json(pausedRun!.attributes[ATTR_GEN_AI_INPUT_MESSAGES])).toEqual(REFUND_GENAI_MESSAGES.input);
  expect(pausedRun!.attributes).not.toHaveProperty(ATTR_GEN_AI_OUTPUT_MESSAGES);
  expect(json(resumedRun!.attributes[ATTR_GEN_AI_OUTPUT_MESSAGES])).toEqual([
    {
      role: 'assistant',
      parts: [{ type: 'text', content: 'I refunded $30 on order 42.' }],
      finish_reason: 'completed',
    },
  ]);
  // The resumed call sends the tool results back: a `tool` message with both responses.
  const resumedChat = resumedRun!.children.find((span) => span.name.startsWith('chat'))!.attributes;
  expect(json(resumedChat[ATTR_GEN_AI_INPUT_MESSAGES])).toContainEqual({
    role: 'tool',
    parts: [
      { type: 'tool_call_response', id: 'call_lookup', response: expect.any(String) },
      { type: 'tool_call_response', id: 'call_refund', response: expect.any(String) },
    ],
  });
});

it('records no content by default, but says whether the call streamed', async () => {
  const support = defineSupport({});
  const stream = support.handle({ ticketId: 42 }).stream();
  for await (const _part of stream);
  await stream.response;
  const spans = tracing.finishedSpans();
  for (const span of spans) {
    for (const name of [ATTR_GEN_AI_INPUT_MESSAGES, ATTR_GEN_AI_OUTPUT_MESSAGES, ATTR_GEN_AI_SYSTEM_INSTRUCTIONS])
      expect(span.attributes).not.toHaveProperty(name);
  }
  expect(spans.find((span) => span.name.startsWith('chat'))!.attributes[ATTR_GEN_AI_REQUEST_STREAM]).toBe(true);
});

it('adds OpenInference names for Phoenix: kinds, session, flattened messages, tools, tokens, input and output', async () => {
  const support = defineSupport({ captureContent: true, openInference: true });
  const paused = await support.handle({ ticketId: 42 }).generateNow();
  await support.handle({ ticketId: 42 }).resumeNow({ checkpoint: paused.checkpoint, answers: { call_refund: true } });
  const [pausedRun, resumedRun] = spanTree(tracing.finishedSpans());
  for (const span of tracing.finishedSpans()) expect(span.attributes[OI.SESSION_ID]).toBe(paused.generationId);

  expect(pausedRun!.attributes).toMatchObject({
    [OI.OPENINFERENCE_SPAN_KIND]: OpenInferenceSpanKind.AGENT,
    [OI.AGENT_NAME]: 'support',
    [OI.INPUT_VALUE]: 'Resolve support ticket 42',
  });
  expect(resumedRun!.attributes[OI.OUTPUT_VALUE]).toBe('I refunded $30 on order 42.');
  const chat = pausedRun!.children[0]!.attributes;
  expect(chat).toMatchObject({
    [OI.OPENINFERENCE_SPAN_KIND]: OpenInferenceSpanKind.LLM,
    [OI.LLM_MODEL_NAME]: 'scripted-1',
    [OI.LLM_SYSTEM]: 'scripted',
    [`${OI.LLM_INPUT_MESSAGES}.0.${OI.MESSAGE_ROLE}`]: 'system',
    [`${OI.LLM_INPUT_MESSAGES}.0.${OI.MESSAGE_CONTENT}`]: 'You resolve support tickets.',
    [`${OI.LLM_INPUT_MESSAGES}.1.${OI.MESSAGE_ROLE}`]: 'user',
    [`${OI.LLM_INPUT_MESSAGES}.1.${OI.MESSAGE_CONTENT}`]: 'Resolve support ticket 42',
    [`${OI.LLM_OUTPUT_MESSAGES}.0.${OI.MESSAGE_ROLE}`]: 'assistant',
    [`${OI.LLM_OUTPUT_MESSAGES}.0.${OI.MESSAGE_CONTENT}`]: 'Let me check the order.',
    [`${OI.LLM_OUTPUT_MESSAGES}.0.${OI.MESSAGE_TOOL_CALLS}.1.${OI.TOOL_CALL_ID}`]: 'call_refund',
    [`${OI.LLM_OUTPUT_MESSAGES}.0.${OI.MESSAGE_TOOL_CALLS}.1.${OI.TOOL_CALL_FUNCTION_NAME}`]: 'issue_refund',
    [`${OI.LLM_OUTPUT_MESSAGES}.0.${OI.MESSAGE_TOOL_CALLS}.1.${OI.TOOL_CALL_FUNCTION_ARGUMENTS_JSON}`]:
      '{"order_id":42,"amount":30}',
    [OI.LLM_TOKEN_COUNT_PROMPT]: 10,
    [OI.LLM_TOKEN_COUNT_COMPLETION]: 5,
    [OI.LLM_TOKEN_COUNT_TOTAL]: 15,
    [OI.INPUT_MIME_TYPE]: 'application/json',
  });
  expect(json(chat[`${OI.LLM_TOOLS}.0.${OI.TOOL_JSON_SCHEMA}`])).toMatchObject({
    type: 'function',
    function: { name: 'lookup_order' },
  });
  expect(json(chat[OI.OUTPUT_VALUE])).toMatchObject({ messages: [{ role: 'assistant' }] });
  // The tool results go back as one `tool` message per call, each naming its call.
  const resumedChat = resumedRun!.children.find((span) => span.name.startsWith('chat'))!.attributes;
  const toolMessages = Object.entries(resumedChat).filter(
    ([key, value]) => key.startsWith(OI.LLM_INPUT_MESSAGES) && key.endsWith(OI.MESSAGE_ROLE) && value === 'tool',
  );
  expect(toolMessages).toHaveLength(2);
  const tool = resumedRun!.children.find((span) => span.name === 'execute_tool issue_refund')!.attributes;
  expect(tool).toMatchObject({
    [OI.OPENINFERENCE_SPAN_KIND]: OpenInferenceSpanKind.TOOL,
    [OI.TOOL_NAME]: 'issue_refund',
    [OI.INPUT_VALUE]: '{"order_id":42,"amount":30}',
    [OI.OUTPUT_VALUE]: '{"refunded":30}',
  });
});
