import type { ProviderMessage, ToolCall } from '@interlude/core/provider';
import { openaiChatAssistantMessageSchema } from './openai-chat-api.js';
import { parseToolArguments } from './parse-tool-arguments.js';

/**
 * Reads the client tool calls back out of a stored tool-call turn (on Chat Completions, the one
 * assistant message), in the order the model wrote them. Anything else in the turn is ignored, so
 * a checkpoint edited into another shape yields no calls and core refuses it.
 */
export function readOpenAIChatToolCalls(turn: readonly ProviderMessage[]): ToolCall[] {
  const calls: ToolCall[] = [];
  for (const message of turn) {
    const parsed = openaiChatAssistantMessageSchema.safeParse(message);
    if (!parsed.success) continue;
    for (const call of parsed.data.tool_calls ?? []) {
      calls.push({ id: call.id, name: call.function.name, arguments: parseToolArguments(call.function.arguments) });
    }
  }
  return calls;
}
