import type { ModelResponse, Usage } from '@interlude/core/provider';
import { createToolCallIds } from '../shared/tool-call-ids.js';
import { mapOpenAIResponsesFinishReason } from './map-openai-responses-finish-reason.js';
import { type OpenAIResponsesUsage, openaiResponsesResponseSchema } from './openai-responses-api.js';
import {
  invalidResponseError,
  OPENAI_RESPONSES_LABEL,
  OPENAI_RESPONSES_PROVIDER,
  responseFailedError,
} from './openai-responses-error.js';
import {
  readOpenAIResponsesText,
  readOpenAIResponsesToolCalls,
  withUsableCallIds,
} from './read-openai-responses-items.js';

/**
 * Reads a Responses `response` object into core's `ModelResponse`. Every output item of the turn
 * is returned, verbatim and in order (reasoning, message, function calls…): core stores them all
 * as the tool-call turn, so reasoning goes back right before the calls it led to. A function call
 * with no `call_id`, or one another call of the turn already has, gets one of its own
 * (`createToolCallIds`, `turn` = messages before the answer), stored in the item.
 *
 * @see https://platform.openai.com/docs/api-reference/responses/object
 */
export function parseOpenAIResponsesResponse(body: unknown, turn: number): ModelResponse {
  const parsed = openaiResponsesResponseSchema.safeParse(body);
  if (!parsed.success) {
    throw invalidResponseError(OPENAI_RESPONSES_PROVIDER, OPENAI_RESPONSES_LABEL, parsed.error.message, parsed.error);
  }
  const response = parsed.data;
  if (response.status === 'failed') throw responseFailedError(response.error?.code, response.error?.message);
  const items = withUsableCallIds(response.output, createToolCallIds(turn));
  const toolCalls = readOpenAIResponsesToolCalls(items);
  return {
    messages: items,
    toolCalls,
    text: readOpenAIResponsesText(items),
    ...mapOpenAIResponsesFinishReason(response, toolCalls.length > 0),
    ...(response.usage ? { usage: mapOpenAIResponsesUsage(response.usage) } : {}),
    ...(response.id !== undefined ? { responseId: response.id } : {}),
    ...(response.model !== undefined ? { responseModel: response.model } : {}),
  };
}

/** Responses usage in core's terms; cached input tokens are cache reads. */
export function mapOpenAIResponsesUsage(usage: OpenAIResponsesUsage): Usage {
  const result: Usage = {};
  if (usage.input_tokens !== undefined) result.inputTokens = usage.input_tokens;
  if (usage.output_tokens !== undefined) result.outputTokens = usage.output_tokens;
  const cached = usage.input_tokens_details?.cached_tokens;
  if (typeof cached === 'number') result.cacheReadTokens = cached;
  return result;
}
