import type { ToolResultMessage } from '@interlude/core/provider';
import type { EasyInputMessage, ResponseInputItem } from 'openai/resources/responses/responses';

/**
 * The opening user turn as a Responses input item.
 *
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-input
 */
export function convertUserText(text: string): EasyInputMessage[] {
  return [{ role: 'user', content: text }];
}

/** A stored conversation's earlier answer, replayed as an assistant input message (`hasContext`). */
export function convertAssistantText(text: string): EasyInputMessage[] {
  return [{ role: 'assistant', content: text }];
}

/**
 * One `function_call_output` item per result, in the order the model asked for the calls, each
 * naming its `call_id`. They follow the turn's items (reasoning, function calls) unchanged.
 *
 * @see https://platform.openai.com/docs/guides/function-calling
 */
export function convertToolResults(results: readonly ToolResultMessage[]): ResponseInputItem.FunctionCallOutput[] {
  return results.map((result) => ({ type: 'function_call_output', call_id: result.toolCallId, output: result.output }));
}
