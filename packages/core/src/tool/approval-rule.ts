import type { InputExpiryOptions } from '../input-request/input-expiry.js';
import { InputRequest } from '../input-request/input-request.js';
import type { ToolCall } from '../provider/provider-adapter.js';

/**
 * When a call to a tool waits for a person's approval, and what the person is asked. Both
 * functions take the call's input as the tool's schema parsed it.
 */
// biome-ignore lint/suspicious/noExplicitAny: a rule in an action's list serves a tool of any input type.
export interface ApprovalRule<Input = any> {
  /** True when this call waits, false when it runs without asking; every call waits when omitted. */
  when?(input: Input): boolean | Promise<boolean>;
  /** The approval question; `Allow <tool> to run?` when omitted. */
  prompt?(input: Input): string;
}

/** One entry of an action's `requiresApproval`: the rule for the tool it names. */
// biome-ignore lint/suspicious/noExplicitAny: see ApprovalRule.
export interface ToolApprovalRule<Input = any> extends ApprovalRule<Input> {
  tool: string;
}

/** An action's `requiresApproval`: tool names (every call waits) and rules, alone or in an array. */
export type RequiresApproval = string | ToolApprovalRule | readonly (string | ToolApprovalRule)[];

/**
 * What the gate makes of one call: no rule applies (`none`), it waits with this question (`ask`),
 * its rule let it through (`pass`, a decision worth recording), or its rule failed (`fail`).
 */
export type GateOutcome =
  | { kind: 'none' }
  | { kind: 'ask'; request: InputRequest }
  | { kind: 'pass' }
  | { kind: 'fail'; message: string };

const ALWAYS: ApprovalRule = Object.freeze({});

/**
 * `requiresApproval` as rules by tool name, or a `TypeError` naming what is wrong, before any
 * request: a name, a rule `{ tool, when?, prompt? }`, or an array of them, each tool at most once.
 */
export function parseRequiresApproval(value: unknown): Map<string, ApprovalRule> {
  const rules = new Map<string, ApprovalRule>();
  if (value === undefined) return rules;
  for (const entry of Array.isArray(value) ? value : [value]) {
    const [name, rule] = typeof entry === 'string' ? [entry, ALWAYS] : [ruleToolName(entry), checkRule(entry)];
    if (rules.has(name)) throw new TypeError(`requiresApproval names ${name} twice`);
    rules.set(name, rule);
  }
  return rules;
}

function ruleToolName(entry: unknown): string {
  if (
    typeof entry === 'object' &&
    entry !== null &&
    !Array.isArray(entry) &&
    typeof (entry as { tool?: unknown }).tool === 'string'
  ) {
    return (entry as ToolApprovalRule).tool;
  }
  throw new TypeError(
    `requiresApproval takes tool names and rules { tool, when?, prompt? }, got ${entry === null ? 'null' : typeof entry === 'object' ? 'an object without a tool name' : JSON.stringify(entry)}`,
  );
}

/** A rule's `when` and `prompt` are functions when given; anything else is refused up front. */
export function checkRule(rule: unknown, label = `the rule for ${(rule as { tool?: string }).tool}`): ApprovalRule {
  const { when, prompt } = rule as ApprovalRule;
  if (when !== undefined && typeof when !== 'function') throw new TypeError(`when in ${label} must be a function`);
  if (prompt !== undefined && typeof prompt !== 'function')
    throw new TypeError(`prompt in ${label} must be a function`);
  return rule as ApprovalRule;
}

/**
 * What a gate reads of a `Tool`: declared here rather than imported, since `tool.ts` checks its
 * rules with this file and an import back would make a cycle.
 */
export interface GatedTool {
  parse(args: unknown): { success: true; data: unknown } | { success: false; error: string };
  readonly requiresApproval?: boolean | ApprovalRule;
  readonly approvalExpiry?: InputExpiryOptions;
}

/** A tool's own rule (`tool({ requiresApproval })`, an MCP server's `requireApproval`), if it has one. */
function ownRule(tool: GatedTool | undefined): ApprovalRule | undefined {
  const own = tool?.requiresApproval;
  if (own === undefined || own === false) return undefined;
  return own === true ? ALWAYS : own;
}

/**
 * The gate of one call, evaluated once, the first time the call is dispatched: the action's rule
 * for the tool, else the tool's own. A call its tool cannot run (an unknown tool, arguments its
 * schema refuses) never waits: nothing would run after an approval, and the model reads why at
 * once. A rule that throws, or a prompt that is not a string, fails the call: its body never runs.
 */
export async function evaluateGate(
  call: ToolCall,
  tool: GatedTool | undefined,
  actionRules: ReadonlyMap<string, ApprovalRule>,
): Promise<GateOutcome> {
  const rule = actionRules.get(call.name) ?? ownRule(tool);
  if (rule === undefined || tool === undefined) return { kind: 'none' };
  const parsed = tool.parse(call.arguments);
  if (!parsed.success) return { kind: 'none' };
  let prompt = `Allow ${call.name} to run?`;
  try {
    if (rule.when !== undefined) {
      const waits = await rule.when(parsed.data);
      if (typeof waits !== 'boolean') {
        return { kind: 'fail', message: `The approval rule for ${call.name} must return true or false` };
      }
      if (!waits) return { kind: 'pass' };
    }
    if (rule.prompt !== undefined) {
      const built = rule.prompt(parsed.data);
      if (typeof built !== 'string' || built.length === 0) {
        return { kind: 'fail', message: `The approval prompt for ${call.name} must be a non-empty string` };
      }
      prompt = built;
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { kind: 'fail', message: `The approval rule for ${call.name} failed: ${reason}` };
  }
  return {
    kind: 'ask',
    request: InputRequest.confirm(prompt, { ...tool.approvalExpiry, metadata: { approval: true } }),
  };
}
