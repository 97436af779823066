import type { ProviderMessage, ToolCall } from '@interlude/core/provider';
import { parseToolArguments } from '../openai-chat/parse-tool-arguments.js';
import type { createToolCallIds } from '../shared/tool-call-ids.js';
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
      id: parsed.data.call_id ?? '',
      name: parsed.data.name,
      arguments: parseToolArguments(parsed.data.arguments),
    });
  }
  return calls;
}

/**
 * A turn's items with a usable `call_id` on every function call: the server's, or one made up
 * (`createToolCallIds`) where it sent none or repeated one. Changed items are copies; everything
 * else goes back exactly as it came.
 */
export function withUsableCallIds(
  items: readonly ProviderMessage[],
  ids: ReturnType<typeof createToolCallIds>,
): ProviderMessage[] {
  return items.map((item) => {
    const call = openaiResponsesFunctionCallSchema.safeParse(item);
    if (!call.success) return item;
    const id = ids.next(call.data.call_id);
    return id === call.data.call_id ? item : { ...(item as Record<string, unknown>), call_id: id };
  });
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
