import type { ModelResponse, ModelStreamPart } from '@interlude/core';
import { type OpenAIResponsesItem, openaiResponsesStreamEventSchema } from './openai-responses-api.js';
import {
  abortedError,
  invalidResponseError,
  mapOpenAIResponsesError,
  OPENAI_RESPONSES_LABEL,
  OPENAI_RESPONSES_PROVIDER,
  responseFailedError,
  streamEndedEarlyError,
} from './openai-responses-error.js';
import { parseOpenAIResponsesResponse } from './parse-openai-responses-response.js';
import { readOpenAIResponsesToolCalls } from './read-openai-responses-items.js';

const terminalEvents = new Set(['response.completed', 'response.incomplete']);

/**
 * Reads a streamed response (the SDK's raw event iterator) into the same `ModelResponse` a
 * non-streamed call gives. Text deltas are reported as they arrive and each function call once
 * its item is done. The final `response.completed` (or `incomplete`) event is the answer; a
 * stream that ends without one was cut and fails with a `ProviderError`, as do `error` events
 * and `response.failed`.
 *
 * @see https://platform.openai.com/docs/api-reference/responses-streaming
 */
export async function readOpenAIResponsesStream(
  events: AsyncIterable<unknown>,
  onPart: ((part: ModelStreamPart) => void) | undefined,
  signal: AbortSignal | undefined,
): Promise<ModelResponse> {
  const doneItems: OpenAIResponsesItem[] = [];
  let final: Record<string, unknown> | undefined;
  try {
    for await (const raw of events) {
      const parsed = openaiResponsesStreamEventSchema.safeParse(raw);
      if (!parsed.success) {
        throw invalidResponseError(
          OPENAI_RESPONSES_PROVIDER,
          OPENAI_RESPONSES_LABEL,
          `bad event: ${parsed.error.message}`,
        );
      }
      const event = parsed.data;
      if (event.type === 'response.output_text.delta' && event.delta) {
        onPart?.({ type: 'text-delta', text: event.delta });
      } else if (event.type === 'response.output_item.done' && event.item !== undefined) {
        doneItems[event.output_index ?? doneItems.length] = event.item;
        for (const toolCall of readOpenAIResponsesToolCalls([event.item])) onPart?.({ type: 'tool-call', toolCall });
      } else if (event.type === 'error') {
        throw responseFailedError(event.code, event.message);
      } else if (event.type === 'response.failed') {
        const failed = (event.response ?? {}) as { error?: { code?: string | null; message?: string | null } | null };
        throw responseFailedError(failed.error?.code, failed.error?.message);
      } else if (terminalEvents.has(event.type) && event.response !== undefined) {
        final = event.response;
      }
    }
  } catch (error) {
    throw mapOpenAIResponsesError(error);
  }
  // The SDK ends the iteration quietly when the caller aborts; that is not an answer either.
  if (signal?.aborted) throw abortedError(OPENAI_RESPONSES_PROVIDER, OPENAI_RESPONSES_LABEL, signal.reason);
  if (final === undefined) {
    throw streamEndedEarlyError(OPENAI_RESPONSES_PROVIDER, OPENAI_RESPONSES_LABEL, 'response.completed event');
  }
  // The terminal event carries the whole output; fall back on the items seen when a server leaves it out.
  const output = Array.isArray(final.output) && final.output.length > 0 ? final.output : doneItems.filter(Boolean);
  return parseOpenAIResponsesResponse({ ...final, output });
}
