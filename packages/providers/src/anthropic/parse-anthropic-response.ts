import { type ModelResponse, ProviderError, type ToolCall, type Usage } from '@interlude/core/provider';
import type { z } from 'zod';
import {
  type AnthropicMessage,
  type AnthropicUsage,
  anthropicMessageSchema,
  anthropicToolUseBlockSchema,
} from './anthropic-api.js';
import { ANTHROPIC_PROVIDER } from './anthropic-error.js';
import { fromAnthropicResponse } from './convert-to-anthropic-messages.js';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';

/**
 * A Messages response (JSON, or the message a stream assembled) as core's `ModelResponse`.
 * The assistant turn is stored with its blocks verbatim; client `tool_use` blocks become the
 * turn's tool calls in order; `pause_turn` is a continuation the loop must follow, never final.
 *
 * @see https://docs.anthropic.com/en/api/messages#response-content
 */
export function parseAnthropicResponse(raw: unknown): ModelResponse {
  const parsed = anthropicMessageSchema.safeParse(raw);
  if (!parsed.success) throw invalidResponse('something that is not a message', parsed.error);
  // Validated, but stored from the raw answer: validation must not reorder or reshape a block.
  const message = { ...parsed.data, content: (raw as AnthropicMessage).content };
  const toolCalls: ToolCall[] = [];
  const texts: string[] = [];
  for (const block of message.content) {
    if (block.type === 'text' && typeof block['text'] === 'string') texts.push(block['text']);
    if (block.type !== 'tool_use') continue;
    const toolUse = anthropicToolUseBlockSchema.safeParse(block);
    if (!toolUse.success) throw invalidResponse('a tool_use block without an id or name', toolUse.error);
    toolCalls.push({ id: toolUse.data.id, name: toolUse.data.name, arguments: toolUse.data.input ?? {} });
  }
  const stopReason = message.stop_reason ?? undefined;
  return {
    messages: [fromAnthropicResponse(message)],
    toolCalls,
    text: texts.join(''),
    finishReason: mapAnthropicStopReason(stopReason),
    ...(stopReason !== undefined ? { rawFinishReason: stopReason } : {}),
    ...(stopReason === 'pause_turn' ? { continuation: true } : {}),
    ...(message.usage ? { usage: toUsage(message.usage) } : {}),
    ...(message.id !== undefined ? { responseId: message.id } : {}),
    ...(message.model !== undefined ? { responseModel: message.model } : {}),
  };
}

function invalidResponse(what: string, cause: z.ZodError): ProviderError {
  return new ProviderError({
    message: `Anthropic answered with ${what}: ${cause.message}`,
    provider: ANTHROPIC_PROVIDER,
    type: 'invalid_response',
    isRetryable: false,
    cause,
  });
}

function toUsage(usage: AnthropicUsage): Usage {
  const result: Usage = {};
  if (usage.input_tokens != null) result.inputTokens = usage.input_tokens;
  if (usage.output_tokens != null) result.outputTokens = usage.output_tokens;
  if (usage.cache_read_input_tokens != null) result.cacheReadTokens = usage.cache_read_input_tokens;
  if (usage.cache_creation_input_tokens != null) result.cacheWriteTokens = usage.cache_creation_input_tokens;
  return result;
}
