import type { ResolvedPrompt } from '../agent/action.js';
import type { CompletedResult } from '../checkpoint/checkpoint.js';
import type { ModelRequest, ToolCall, ToolResultMessage, ToolSpec } from '../provider/provider-adapter.js';
import { effectiveToolChoice, type GenerationContext } from './generation-context.js';

/** The request for the next model call: instructions rendered fresh, never stored in the messages. */
export function buildModelRequest(
  context: GenerationContext,
  prompt: ResolvedPrompt,
  tools: readonly ToolSpec[],
): ModelRequest {
  return {
    instructions: prompt.instructions,
    messages: context.messages,
    tools,
    toolChoice: effectiveToolChoice(context),
  };
}

/** A turn's results in the order the model asked for them, as adapters take them. */
export function toResultMessages(
  calls: readonly ToolCall[],
  completed: Readonly<Record<string, CompletedResult>>,
): ToolResultMessage[] {
  return calls.map((call) => {
    const result = completed[call.id];
    if (result === undefined) throw new Error(`No result for tool call ${call.id}`);
    return {
      toolCallId: call.id,
      toolName: call.name,
      result: result.result,
      output: typeof result.result === 'string' ? result.result : JSON.stringify(result.result),
      isError: result.is_error,
    };
  });
}
