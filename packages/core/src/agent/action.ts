import type { ToolChoice } from '../provider/provider-adapter.js';
import { type ApprovalRule, parseRequiresApproval, type RequiresApproval } from '../tool/approval-rule.js';
import type { Tool } from '../tool/tool.js';
import { isToolset, type Toolset } from '../tool/toolset.js';

/**
 * What an action returns (or resolves to): the prompt of one generation. It runs again on every
 * resume, so it must rebuild the same tools and have no side effects.
 */
export interface ActionPrompt {
  message: string;
  /** Tools, and toolsets (MCP servers) whose tools are listed when the generation runs. */
  // biome-ignore lint/suspicious/noExplicitAny: tools of any input type live in one list.
  tools?: readonly (Tool<any> | Toolset)[];
  instructions?: string;
  /**
   * Calls that wait for a person's approval before they run: a tool name (every call waits), a
   * rule `{ tool, when?, prompt? }` on the call's input, or an array of them. A rule for a tool
   * replaces the tool's own (`tool({ requiresApproval })`).
   */
  requiresApproval?: RequiresApproval;
  toolChoice?: ToolChoice;
  /** Model→tools round trips allowed over the whole generation, pauses included. Default 25. */
  maxToolTurns?: number;
}

/**
 * Builds a generation's prompt from its params, or resolves to it (an action may `await` a
 * lookup). It runs on the first run and again on every resume, in whichever process resumes:
 * it must have no side effects.
 */
// biome-ignore lint/suspicious/noExplicitAny: an action's params are whatever its author types them as.
export type ActionFunction = (params: any) => ActionPrompt | Promise<ActionPrompt>;

export const DEFAULT_MAX_TOOL_TURNS = 25;

/** An action's prompt, checked and in the form the generation loop uses. */
export interface ResolvedPrompt {
  actionName: string;
  message: string;
  tools: Map<string, Tool>;
  /** Opened when a run starts; their tools join `tools`. */
  toolsets: Toolset[];
  instructions: string | undefined;
  /** The action's approval rules by tool name (a plain name is a rule without `when` or `prompt`). */
  approvalRules: Map<string, ApprovalRule>;
  toolChoice: ToolChoice | undefined;
  maxToolTurns: number;
}

/**
 * Runs an action (awaiting it when it returns a promise) and checks what it returned, before any
 * request: a malformed `requiresApproval` (anything but names and rules `{ tool, when?, prompt? }`)
 * is a `TypeError`, as are duplicate tool names and a forced tool choice naming a tool the action
 * does not offer.
 */
export async function resolvePrompt(
  actionName: string,
  action: ActionFunction,
  params: unknown,
  agentInstructions: string | undefined,
): Promise<ResolvedPrompt> {
  const prompt = await action(params);
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
    approvalRules: parseRequiresApproval(prompt.requiresApproval),
    toolChoice: choice,
    maxToolTurns,
  };
}

function joinInstructions(agent: string | undefined, action: string | undefined): string | undefined {
  const parts = [agent, action].filter((part): part is string => typeof part === 'string' && part.length > 0);
  return parts.length === 0 ? undefined : parts.join('\n\n');
}
