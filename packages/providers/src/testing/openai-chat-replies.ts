import type { ScriptedToolUse } from './anthropic-conversation.js';
import { type ChatCompletionBody, streamedCompletion } from './openai-chat-chunks.js';
import type { WireReply } from './wire-server.js';

type ChatMessageBody = ChatCompletionBody['choices'][number]['message'];

/** A tool call of a Chat Completions message: its arguments are a JSON string, as the API sends them. */
export function openaiChatToolCall(toolUse: ScriptedToolUse) {
  return {
    id: toolUse.id,
    type: 'function',
    function: { name: toolUse.name, arguments: JSON.stringify(toolUse.input) },
  };
}

/**
 * A Chat Completions response (`chat.completion`) holding one assistant message; `finish_reason`
 * `tool_calls` by default. `id` and `model` default to scripted names; the usage is fixed, so
 * what a run reports from it is the same on every run.
 */
export function openaiChatCompletion(
  message: ChatMessageBody,
  finishReason = 'tool_calls',
  options: { id?: string; model?: string } = {},
): ChatCompletionBody {
  return {
    id: options.id ?? 'chatcmpl-scripted',
    object: 'chat.completion',
    created: 1_764_450_000,
    model: options.model ?? 'gpt-scripted',
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finishReason, logprobs: null }],
    usage: { prompt_tokens: 180, completion_tokens: 40, total_tokens: 220 },
  };
}

/**
 * A completion as the wire server sends it: as JSON, or for a request with `stream: true` as the
 * chunks the API streams (with the usage chunk when `stream_options.include_usage` asked for it).
 */
export function openaiChatReply(completion: ChatCompletionBody, requestBody: unknown): WireReply {
  const body = (requestBody ?? {}) as { stream?: boolean; stream_options?: { include_usage?: boolean } };
  if (body.stream !== true) return { json: completion };
  return { sse: streamedCompletion(completion, body.stream_options?.include_usage === true), done: true };
}
