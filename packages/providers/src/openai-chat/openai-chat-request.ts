import type { ModelRequest } from '@interlude/core/provider';
import type { ChatCompletionCreateParamsBase } from 'openai/resources/chat/completions';
import { type OpenAIChatInstructionsRole, withInstructions } from './convert-to-openai-chat-messages.js';
import { prepareOpenAIChatTools } from './openai-chat-prepare-tools.js';

/** Request settings an `openaiChat()` adapter adds to every call. */
export interface OpenAIChatSettings {
  /** Role of the instructions message: `developer` (default) or `system` for servers that lack `developer`. */
  instructionsRole?: OpenAIChatInstructionsRole;
  temperature?: number;
  maxCompletionTokens?: number;
  reasoningEffort?: 'minimal' | 'low' | 'medium' | 'high';
  parallelToolCalls?: boolean;
  /** Ask for token usage on streamed calls (`stream_options.include_usage`). Default true. */
  streamUsage?: boolean;
  /** Extra body fields for compatible endpoints (OpenRouter `provider`, Ollama `options`, …). */
  extraBody?: Record<string, unknown>;
}

/**
 * Builds the Chat Completions body of one call: instructions first, then the stored messages,
 * tools and tool choice, then the adapter's settings.
 *
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */
export function buildOpenAIChatRequest(
  model: string,
  request: ModelRequest,
  settings: OpenAIChatSettings,
  stream: boolean,
): ChatCompletionCreateParamsBase {
  const body: ChatCompletionCreateParamsBase = {
    model,
    messages: withInstructions(request.instructions, request.messages, settings.instructionsRole ?? 'developer'),
    ...prepareOpenAIChatTools(request.tools, request.toolChoice),
  };
  if (settings.parallelToolCalls !== undefined && request.tools.length > 0) {
    body.parallel_tool_calls = settings.parallelToolCalls;
  }
  if (settings.temperature !== undefined) body.temperature = settings.temperature;
  if (settings.maxCompletionTokens !== undefined) body.max_completion_tokens = settings.maxCompletionTokens;
  if (settings.reasoningEffort !== undefined) body.reasoning_effort = settings.reasoningEffort;
  if (stream) {
    body.stream = true;
    if (settings.streamUsage !== false) body.stream_options = { include_usage: true };
  }
  return { ...body, ...settings.extraBody } as ChatCompletionCreateParamsBase;
}
