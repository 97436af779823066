import type { OpenAIChatAssistantMessage, OpenAIChatResponse } from './openai-chat-api.js';

/**
 * True only for a body `openaiChatResponseSchema` accepts, checked by hand. In a real process,
 * where zod's shared parsing code has seen many shapes, parsing a two-call completion cost about
 * 70 µs (2 µs in a micro-benchmark): a tenth of the refund cycle's overhead over the bare SDK. It
 * is stricter than the schema (plain JSON objects only, finite numbers), so a body it refuses
 * still gets zod's verdict and message: it may only ever say yes where zod says yes.
 */
export function isOpenAIChatResponse(body: unknown): body is OpenAIChatResponse {
  if (!isRecord(body)) return false;
  const { id, model, choices, usage } = body;
  if (!isOptionalString(id) || !isOptionalString(model)) return false;
  if (!Array.isArray(choices) || choices.length === 0 || !choices.every(isChoice)) return false;
  return usage === undefined || usage === null || isUsage(usage);
}

/**
 * True only for a stored assistant message `openaiChatAssistantMessageSchema` accepts: how a
 * resume reads its paused turn's calls back without zod (the same reasons, the same rule).
 */
export function isOpenAIChatAssistantMessage(message: unknown): message is OpenAIChatAssistantMessage {
  if (!isRecord(message) || message['role'] !== 'assistant' || !isNullishString(message['content'])) return false;
  const toolCalls = message['tool_calls'];
  return toolCalls === undefined || (Array.isArray(toolCalls) && toolCalls.every(isToolCall));
}

function isChoice(choice: unknown): boolean {
  if (!isRecord(choice) || !isNullishString(choice['finish_reason'])) return false;
  const message = choice['message'];
  if (!isRecord(message)) return false;
  const toolCalls = message['tool_calls'];
  const details = message['reasoning_details'];
  return (
    isNullishString(message['content']) &&
    isNullishString(message['reasoning_content']) &&
    isNullishString(message['reasoning']) &&
    (details === undefined || details === null || (Array.isArray(details) && details.every(isRecord))) &&
    isNullishRecord(message['extra_content']) &&
    (toolCalls === undefined || toolCalls === null || (Array.isArray(toolCalls) && toolCalls.every(isToolCall)))
  );
}

function isToolCall(call: unknown): boolean {
  if (!isRecord(call) || typeof call['id'] !== 'string') return false;
  if (call['type'] !== undefined && call['type'] !== 'function') return false;
  const called = call['function'];
  return (
    isRecord(called) &&
    typeof called['name'] === 'string' &&
    typeof called['arguments'] === 'string' &&
    isNullishRecord(call['extra_content'])
  );
}

function isUsage(usage: unknown): boolean {
  if (!isRecord(usage)) return false;
  const details = usage['prompt_tokens_details'];
  return (
    isOptionalNumber(usage['prompt_tokens']) &&
    isOptionalNumber(usage['completion_tokens']) &&
    (details === undefined ||
      details === null ||
      (isRecord(details) && (details['cached_tokens'] === null || isOptionalNumber(details['cached_tokens']))))
  );
}

/** A plain object as `JSON.parse` makes it: no prototype tricks, nothing zod would read differently. */
function isRecord(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.getPrototypeOf(value) === Object.prototype &&
    !Object.hasOwn(value, '__proto__')
  );
}

function isNullishRecord(value: unknown): boolean {
  return value === undefined || value === null || isRecord(value);
}

function isOptionalString(value: unknown): boolean {
  return value === undefined || typeof value === 'string';
}

function isNullishString(value: unknown): boolean {
  return value === null || isOptionalString(value);
}

function isOptionalNumber(value: unknown): boolean {
  return value === undefined || (typeof value === 'number' && Number.isFinite(value));
}
