import type { ModelResponse, Usage } from '@interlude/core/provider';
import { createToolCallIds } from '../shared/tool-call-ids.js';
import { createAssistantMessage, type StoredChatToolCall } from './convert-to-openai-chat-messages.js';
import { mapOpenAIChatFinishReason } from './map-openai-chat-finish-reason.js';
import { type OpenAIChatResponse, type OpenAIChatUsage, openaiChatResponseSchema } from './openai-chat-api.js';
import { invalidResponseError, OPENAI_CHAT_LABEL, OPENAI_CHAT_PROVIDER } from './openai-chat-error.js';
import { pickReplayedFields } from './openai-chat-reasoning-fields.js';
import { parseToolArguments } from './parse-tool-arguments.js';

/**
 * Reads a non-streamed chat completion into core's `ModelResponse`: the assistant message to
 * store (first choice, with the reasoning fields a compatible server needs back), its tool calls
 * in order, text, finish reason and usage. A call with no id, or one another call of the turn
 * already has, gets an id of its own (`createToolCallIds`, `turn` = messages before the answer).
 *
 * @see https://platform.openai.com/docs/api-reference/chat/object
 */
export function parseOpenAIChatResponse(body: unknown, turn: number): ModelResponse {
  const response = parseWithSchema(body);
  const choice = response.choices[0]!;
  const text = choice.message.content ?? '';
  const ids = createToolCallIds(turn);
  const calls: StoredChatToolCall[] = (choice.message.tool_calls ?? []).map((call) => ({
    call: { id: ids.next(call.id), name: call.function.name, arguments: parseToolArguments(call.function.arguments) },
    rawArguments: call.function.arguments,
    fields: pickReplayedFields(call, ['extra_content']),
  }));
  const toolCalls = calls.map(({ call }) => call);
  return {
    messages: [createAssistantMessage(text, calls, pickReplayedFields(choice.message))],
    toolCalls,
    text,
    finishReason: mapOpenAIChatFinishReason(choice.finish_reason, toolCalls.length > 0),
    ...(choice.finish_reason ? { rawFinishReason: choice.finish_reason } : {}),
    ...(response.usage ? { usage: mapOpenAIChatUsage(response.usage) } : {}),
    ...(response.id ? { responseId: response.id } : {}),
    ...(response.model ? { responseModel: response.model } : {}),
  };
}

/** The completion's fields, checked by its schema; a body it refuses gets zod's message. */
function parseWithSchema(body: unknown): OpenAIChatResponse {
  const parsed = openaiChatResponseSchema.safeParse(body);
  if (!parsed.success) {
    throw invalidResponseError(OPENAI_CHAT_PROVIDER, OPENAI_CHAT_LABEL, parsed.error.message, parsed.error);
  }
  return parsed.data;
}

/** Chat usage in core's terms; cached prompt tokens are cache reads. */
export function mapOpenAIChatUsage(usage: OpenAIChatUsage): Usage {
  const result: Usage = {};
  if (usage.prompt_tokens !== undefined) result.inputTokens = usage.prompt_tokens;
  if (usage.completion_tokens !== undefined) result.outputTokens = usage.completion_tokens;
  const cached = usage.prompt_tokens_details?.cached_tokens;
  if (typeof cached === 'number') result.cacheReadTokens = cached;
  return result;
}
