import type { ModelResponse, ModelStreamPart } from '@interlude/core/provider';
import { createToolCallIds } from '../shared/tool-call-ids.js';
import { createAssistantMessage, type StoredChatToolCall } from './convert-to-openai-chat-messages.js';
import { mapOpenAIChatFinishReason } from './map-openai-chat-finish-reason.js';
import { type OpenAIChatChunk, type OpenAIChatUsage, openaiChatChunkSchema } from './openai-chat-api.js';
import { isCommonChunk } from './openai-chat-chunk-check.js';
import {
  abortedError,
  invalidResponseError,
  mapOpenAIError,
  OPENAI_CHAT_LABEL,
  OPENAI_CHAT_PROVIDER,
  streamEndedEarlyError,
} from './openai-chat-error.js';
import { createReplayedFieldsCollector, mergeObjects } from './openai-chat-reasoning-fields.js';
import { mapOpenAIChatUsage } from './parse-openai-chat-response.js';
import { parseToolArguments } from './parse-tool-arguments.js';

interface PartialToolCall {
  id: string;
  name: string;
  arguments: string;
  /** Gemini's `extra_content` (its thought signature), merged from the call's pieces. */
  extraContent: Record<string, unknown> | undefined;
}

/**
 * Reads a streamed chat completion (the SDK's raw chunk iterator) into the same `ModelResponse`
 * a non-streamed call gives. Text deltas are reported as they arrive; tool calls arrive in pieces
 * keyed by `index` and are reported once the choice finishes, complete and in order. The reasoning
 * fields a compatible server streams (`reasoning_content`, `reasoning`, `reasoning_details`,
 * `extra_content`, on the message or on a call) are gathered and stored as a non-streamed answer
 * would have them; calls get the ids a non-streamed answer would give them (`createToolCallIds`).
 * A stream that ends without a `finish_reason` was cut and fails with a
 * `ProviderError` instead of passing as an answer.
 *
 * @see https://platform.openai.com/docs/api-reference/chat-streaming/streaming
 */
export async function readOpenAIChatStream(
  chunks: AsyncIterable<unknown>,
  onPart: ((part: ModelStreamPart) => void) | undefined,
  signal: AbortSignal | undefined,
  turn: number,
): Promise<ModelResponse> {
  let text = '';
  let finishReason: string | undefined;
  let usage: OpenAIChatUsage | undefined;
  let responseId: string | undefined;
  let responseModel: string | undefined;
  const partials: PartialToolCall[] = [];
  const replayed = createReplayedFieldsCollector();

  try {
    for await (const raw of chunks) {
      const chunk = isCommonChunk(raw) ? raw : parseChunk(raw);
      // The first chunk that names them: Azure's model router opens with `"id": ""` and `"model": ""`.
      if (!responseId && chunk.id) responseId = chunk.id;
      if (!responseModel && chunk.model) responseModel = chunk.model;
      if (chunk.usage) usage = chunk.usage;
      const choice = chunk.choices?.find((candidate) => (candidate.index ?? 0) === 0);
      if (choice === undefined) continue;
      if (choice.delta) replayed.add(choice.delta);
      const content = choice.delta?.content;
      if (content) {
        text += content;
        onPart?.({ type: 'text-delta', text: content });
      }
      for (const piece of choice.delta?.tool_calls ?? []) {
        const index = toolCallIndex(partials, piece.index, piece.id);
        const partial = partials[index] ?? { id: '', name: '', arguments: '', extraContent: undefined };
        partials[index] = partial;
        if (piece.id) partial.id = piece.id;
        if (piece.function?.name) partial.name += piece.function.name;
        if (piece.function?.arguments) partial.arguments += piece.function.arguments;
        if (piece.extra_content) partial.extraContent = mergeObjects(partial.extraContent, piece.extra_content);
      }
      if (choice.finish_reason) finishReason = choice.finish_reason;
    }
  } catch (error) {
    throw mapOpenAIError(error, OPENAI_CHAT_PROVIDER, OPENAI_CHAT_LABEL);
  }
  // The SDK ends the iteration quietly when the caller aborts; that is not an answer either.
  if (signal?.aborted) throw abortedError(OPENAI_CHAT_PROVIDER, OPENAI_CHAT_LABEL, signal.reason);
  if (finishReason === undefined) throw streamEndedEarlyError(OPENAI_CHAT_PROVIDER, OPENAI_CHAT_LABEL, 'finish_reason');

  const ids = createToolCallIds(turn);
  const calls: StoredChatToolCall[] = partials
    .filter((partial) => partial !== undefined)
    .map((partial) => ({
      call: { id: ids.next(partial.id), name: partial.name, arguments: parseToolArguments(partial.arguments) },
      rawArguments: partial.arguments,
      fields: partial.extraContent !== undefined ? { extra_content: partial.extraContent } : {},
    }));
  const toolCalls = calls.map(({ call }) => call);
  for (const toolCall of toolCalls) onPart?.({ type: 'tool-call', toolCall });
  return {
    messages: [createAssistantMessage(text, calls, replayed.fields())],
    toolCalls,
    text,
    finishReason: mapOpenAIChatFinishReason(finishReason, toolCalls.length > 0),
    rawFinishReason: finishReason,
    ...(usage ? { usage: mapOpenAIChatUsage(usage) } : {}),
    ...(responseId !== undefined ? { responseId } : {}),
    ...(responseModel !== undefined ? { responseModel } : {}),
  };
}

/** A chunk of another shape (the usage, reasoning objects), or a malformed one, through the schema. */
function parseChunk(raw: unknown): OpenAIChatChunk {
  const parsed = openaiChatChunkSchema.safeParse(raw);
  if (!parsed.success) {
    throw invalidResponseError(OPENAI_CHAT_PROVIDER, OPENAI_CHAT_LABEL, `bad chunk: ${parsed.error.message}`);
  }
  return parsed.data;
}

/**
 * Where a streamed tool-call piece belongs. OpenAI keys pieces by `index`; a few compatible servers
 * leave it out, and then a piece with a new `id` starts a call and one without continues the last.
 */
function toolCallIndex(
  partials: readonly PartialToolCall[],
  index: number | undefined,
  id: string | null | undefined,
): number {
  if (index !== undefined) return index;
  const last = partials.length - 1;
  if (last < 0) return 0;
  return id && partials[last]?.id !== id ? last + 1 : last;
}
