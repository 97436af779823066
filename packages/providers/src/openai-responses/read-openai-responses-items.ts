import type { ProviderMessage, ToolCall } from '@interlude/core';
import { parseToolArguments } from '../openai-chat/parse-tool-arguments.js';
import { openaiResponsesFunctionCallSchema, openaiResponsesMessageItemSchema } from './openai-responses-api.js';

/**
 * The client tool calls among a turn's items (`function_call`), in the order the model wrote
 * them, each named by its `call_id`: the id a `function_call_output` answers. Reasoning and
 * message items around them are left where they are.
 *
 * @see https://platform.openai.com/docs/api-reference/responses/object#responses/object-output
 */
export function readOpenAIResponsesToolCalls(items: readonly ProviderMessage[]): ToolCall[] {
  const calls: ToolCall[] = [];
  for (const item of items) {
    const parsed = openaiResponsesFunctionCallSchema.safeParse(item);
    if (!parsed.success) continue;
    calls.push({
      id: parsed.data.call_id,
      name: parsed.data.name,
      arguments: parseToolArguments(parsed.data.arguments),
    });
  }
  return calls;
}

/** The assistant text of a turn: every `output_text` part of its message items, in order. */
export function readOpenAIResponsesText(items: readonly ProviderMessage[]): string {
  let text = '';
  for (const item of items) {
    const parsed = openaiResponsesMessageItemSchema.safeParse(item);
    if (!parsed.success) continue;
    for (const part of parsed.data.content) if (part.type === 'output_text') text += part.text ?? '';
  }
  return text;
}
