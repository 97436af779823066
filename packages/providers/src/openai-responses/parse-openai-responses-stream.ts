import type { ModelResponse, ModelStreamPart } from '@interlude/core/provider';
import type { z } from 'zod';
import { createToolCallIds } from '../shared/tool-call-ids.js';
import {
  type OpenAIResponsesItem,
  type OpenAIResponsesStreamEventType,
  openaiResponsesStreamEventSchemas,
} from './openai-responses-api.js';
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
import { readOpenAIResponsesToolCalls, withUsableCallIds } from './read-openai-responses-items.js';

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
  turn: number,
): Promise<ModelResponse> {
  const doneItems: OpenAIResponsesItem[] = [];
  // Calls are named as they complete, the way the whole answer will name them at the end.
  const ids = createToolCallIds(turn);
  let final: { output?: unknown[] | undefined } | undefined;
  try {
    for await (const raw of events) {
      const type = (raw as { type?: unknown } | null)?.type;
      if (type === 'response.output_text.delta') {
        const { delta } = read(type, raw);
        if (delta !== '') onPart?.({ type: 'text-delta', text: delta });
      } else if (type === 'response.output_item.done') {
        const { output_index, item } = read(type, raw);
        doneItems[output_index] = item;
        const named = withUsableCallIds([item], ids);
        for (const toolCall of readOpenAIResponsesToolCalls(named)) onPart?.({ type: 'tool-call', toolCall });
      } else if (type === 'response.completed' || type === 'response.incomplete') {
        final = read(type, raw).response;
      } else if (type === 'response.failed') {
        const { error } = read(type, raw).response;
        throw responseFailedError(error?.code, error?.message);
      } else if (type === 'error') {
        const { code, message } = read(type, raw);
        throw responseFailedError(code, message);
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
  const output = final.output !== undefined && final.output.length > 0 ? final.output : doneItems.filter(Boolean);
  return parseOpenAIResponsesResponse({ ...final, output }, turn);
}

/** Checks one event of a type the adapter acts on; a malformed one is a clear, non-retryable error. */
function read<Type extends OpenAIResponsesStreamEventType>(
  type: Type,
  raw: unknown,
): z.infer<(typeof openaiResponsesStreamEventSchemas)[Type]> {
  const parsed = openaiResponsesStreamEventSchemas[type].safeParse(raw);
  if (!parsed.success) {
    throw invalidResponseError(
      OPENAI_RESPONSES_PROVIDER,
      OPENAI_RESPONSES_LABEL,
      `bad ${type} event: ${parsed.error.message}`,
    );
  }
  return parsed.data as z.infer<(typeof openaiResponsesStreamEventSchemas)[Type]>;
}
