import type { ToolChoice, ToolSpec } from '@interlude/core/provider';
import type { ChatCompletionFunctionTool, ChatCompletionToolChoiceOption } from 'openai/resources/chat/completions';

export interface PreparedOpenAIChatTools {
  tools?: ChatCompletionFunctionTool[];
  tool_choice?: ChatCompletionToolChoiceOption;
}

/**
 * Turns core's tools and tool choice into Chat Completions' shapes. A forced tool becomes
 * `{ type: 'function', function: { name } }`. With no tools, neither field is sent: the API
 * rejects a `tool_choice` without `tools`. Approval lists never reach this point.
 *
 * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-tool_choice
 */
export function prepareOpenAIChatTools(
  tools: readonly ToolSpec[],
  toolChoice: ToolChoice | undefined,
): PreparedOpenAIChatTools {
  if (tools.length === 0) return {};
  const prepared: PreparedOpenAIChatTools = {
    tools: tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
    })),
  };
  if (toolChoice === undefined) return prepared;
  prepared.tool_choice =
    typeof toolChoice === 'string' ? toolChoice : { type: 'function', function: { name: toolChoice.name } };
  return prepared;
}
