import type { ToolChoice as AnthropicToolChoice, ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import type { ToolChoice, ToolSpec } from '@interlude/core/provider';

/**
 * A tool the API runs itself (`web_search`, `web_fetch`, `code_execution`, …), passed through
 * as written: `{ type: 'web_search_20250305', name: 'web_search', max_uses: 3 }`. Its calls and
 * results come back as `server_tool_use` / `*_tool_result` blocks that the loop never runs.
 *
 * @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/overview#server-tools
 */
export type AnthropicServerTool = { type: string; name: string } & Record<string, unknown>;

export interface PreparedAnthropicTools {
  tools: ToolUnion[] | undefined;
  toolChoice: AnthropicToolChoice | undefined;
}

/**
 * Client tools as `{ name, description, input_schema }`, then the server tools, and core's
 * tool choice in the API's shape: `required` is `any`, one forced tool is `{ type: 'tool' }`.
 * No tools means no `tool_choice` either: the API refuses one without tools.
 *
 * @see https://docs.anthropic.com/en/api/messages#body-tool-choice
 */
export function prepareAnthropicTools(
  tools: readonly ToolSpec[],
  serverTools: readonly AnthropicServerTool[],
  toolChoice: ToolChoice | undefined,
): PreparedAnthropicTools {
  const prepared: ToolUnion[] = [
    ...tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: { type: 'object' as const, ...tool.inputSchema },
    })),
    ...(serverTools as unknown as ToolUnion[]),
  ];
  if (prepared.length === 0) return { tools: undefined, toolChoice: undefined };
  return { tools: prepared, toolChoice: mapAnthropicToolChoice(toolChoice) };
}

/** @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use#forcing-tool-use */
export function mapAnthropicToolChoice(toolChoice: ToolChoice | undefined): AnthropicToolChoice | undefined {
  if (toolChoice === undefined) return undefined;
  if (toolChoice === 'auto') return { type: 'auto' };
  if (toolChoice === 'none') return { type: 'none' };
  if (toolChoice === 'required') return { type: 'any' };
  return { type: 'tool', name: toolChoice.name };
}
