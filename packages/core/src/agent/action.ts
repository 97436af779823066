import type { ToolChoice } from '../provider/provider-adapter.js';
import type { Tool } from '../tool/tool.js';
import { isToolset, type Toolset } from '../tool/toolset.js';

/** What an action returns: the prompt of one generation. It runs again on resume. */
export interface ActionPrompt {
  message: string;
  /** Tools, and toolsets (MCP servers) whose tools are listed when the generation runs. */
  // biome-ignore lint/suspicious/noExplicitAny: tools of any input type live in one list.
  tools?: readonly (Tool<any> | Toolset)[];
  instructions?: string;
  /** Tool names whose every call waits for a person's approval before it runs. */
  requiresApproval?: string | readonly string[];
  toolChoice?: ToolChoice;
  /** Model→tools round trips allowed over the whole generation, pauses included. Default 25. */
  maxToolTurns?: number;
}

// biome-ignore lint/suspicious/noExplicitAny: an action's params are whatever its author types them as.
export type ActionFunction = (params: any) => ActionPrompt;

export const DEFAULT_MAX_TOOL_TURNS = 25;

/** An action's prompt, checked and in the form the generation loop uses. */
export interface ResolvedPrompt {
  actionName: string;
  message: string;
  tools: Map<string, Tool>;
  /** Opened when a run starts; their tools join `tools`. */
  toolsets: Toolset[];
  instructions: string | undefined;
  gatedTools: Set<string>;
  toolChoice: ToolChoice | undefined;
  maxToolTurns: number;
}

/**
 * Runs an action and checks what it returned, before any request: a malformed
 * `requiresApproval` (anything but a name or an array of names) is a `TypeError`, as are duplicate
 * tool names and a forced tool choice naming a tool the action does not offer.
 */
export function resolvePrompt(
  actionName: string,
  action: ActionFunction,
  params: unknown,
  agentInstructions: string | undefined,
): ResolvedPrompt {
  const prompt = action(params);
  if (typeof prompt !== 'object' || prompt === null || typeof prompt.message !== 'string') {
    throw new TypeError(`Action ${actionName} must return { message, tools, … }`);
  }
  const tools = new Map<string, Tool>();
  const toolsets: Toolset[] = [];
  for (const candidate of prompt.tools ?? []) {
    if (isToolset(candidate)) {
      toolsets.push(candidate);
      continue;
    }
    if (tools.has(candidate.name)) throw new TypeError(`Action ${actionName} lists tool ${candidate.name} twice`);
    tools.set(candidate.name, candidate as Tool);
  }
  const choice = prompt.toolChoice;
  if (typeof choice === 'object' && !tools.has(choice.name) && toolsets.length === 0) {
    throw new TypeError(`Action ${actionName} forces tool ${choice.name}, which it does not offer`);
  }
  const maxToolTurns = prompt.maxToolTurns ?? DEFAULT_MAX_TOOL_TURNS;
  if (!Number.isInteger(maxToolTurns) || maxToolTurns < 0) {
    throw new TypeError(`maxToolTurns must be a non-negative integer, got ${String(prompt.maxToolTurns)}`);
  }
  return {
    actionName,
    message: prompt.message,
    tools,
    toolsets,
    instructions: joinInstructions(agentInstructions, prompt.instructions),
    gatedTools: parseRequiresApproval(prompt.requiresApproval),
    toolChoice: choice,
    maxToolTurns,
  };
}

/** `requiresApproval` is a tool name or an array of names; anything else is refused up front. */
export function parseRequiresApproval(value: unknown): Set<string> {
  if (value === undefined) return new Set();
  if (typeof value === 'string') return new Set([value]);
  if (Array.isArray(value) && value.every((name) => typeof name === 'string')) return new Set(value);
  throw new TypeError(
    `requiresApproval must be a tool name or an array of tool names, got ${value === null ? 'null' : typeof value === 'object' ? 'an object' : JSON.stringify(value)}`,
  );
}

function joinInstructions(agent: string | undefined, action: string | undefined): string | undefined {
  const parts = [agent, action].filter((part): part is string => typeof part === 'string' && part.length > 0);
  return parts.length === 0 ? undefined : parts.join('\n\n');
}
