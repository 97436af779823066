import type { FinishReason } from '@interlude/core/provider';

/**
 * Maps Chat Completions' `finish_reason` to core's finish reason. Some compatible endpoints
 * (Ollama among them) answer `stop` even when the message holds tool calls, so tool calls win.
 *
 * @see https://platform.openai.com/docs/api-reference/chat/object#chat/object-choices
 */
export function mapOpenAIChatFinishReason(
  finishReason: string | null | undefined,
  hasToolCalls: boolean,
): FinishReason {
  if (hasToolCalls) return 'tool-calls';
  switch (finishReason) {
    case 'stop':
      return 'stop';
    case 'length':
      return 'length';
    case 'content_filter':
      return 'content-filter';
    case 'tool_calls':
    case 'function_call':
      return 'tool-calls';
    default:
      return 'other';
  }
}
