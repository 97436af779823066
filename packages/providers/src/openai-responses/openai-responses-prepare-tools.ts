import type { ToolChoice, ToolSpec } from '@interlude/core/provider';
import type { FunctionTool, ToolChoiceFunction, ToolChoiceOptions } from 'openai/resources/responses/responses';

export interface PreparedOpenAIResponsesTools {
  tools?: FunctionTool[];
  tool_choice?: ToolChoiceOptions | ToolChoiceFunction;
}

/**
 * Core's tools and tool choice in Responses' flat shapes: `{ type: 'function', name, parameters }`
 * and, for a forced tool, `{ type: 'function', name }`. `strict` stays off: core's schemas come
 * from zod and need not meet strict mode's rules (every property required, no extra keys).
 *
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-tool_choice
 */
export function prepareOpenAIResponsesTools(
  tools: readonly ToolSpec[],
  toolChoice: ToolChoice | undefined,
): PreparedOpenAIResponsesTools {
  if (tools.length === 0) return {};
  const prepared: PreparedOpenAIResponsesTools = {
    tools: tools.map((tool) => ({
      type: 'function',
      name: tool.name,
      description: tool.description,
      parameters: tool.inputSchema,
      strict: false,
    })),
  };
  if (toolChoice === undefined) return prepared;
  prepared.tool_choice = typeof toolChoice === 'string' ? toolChoice : { type: 'function', name: toolChoice.name };
  return prepared;
}
