// The wire form of a question, apart from the class that builds it: validating answers and
// reading expiry need the shape, and the class needs them, so the shape sits below both.

export type InputRequestKind = 'confirm' | 'text' | 'choice' | 'secret';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type ChoiceOption = JsonValue | { value: JsonValue; label: string };

/**
 * One delegation on the way from the generation a person answers to the tool that asked: the
 * call that delegated, and the agent and action it ran.
 */
export interface DelegationStep {
  tool_call_id: string;
  tool_name: string;
  agent: string;
  action: string;
}

/** The wire form: snake_case, unset fields omitted. */
export interface InputRequestJSON {
  kind: InputRequestKind;
  prompt: string;
  options?: ChoiceOption[];
  schema?: Record<string, unknown>;
  metadata?: Record<string, JsonValue>;
  /** ISO time after which the question is no longer answered by a person (see `expiresIn`). */
  expires_at?: string;
  /** What it is answered with at `expires_at`; absent: declined. */
  on_expiry?: { answer: JsonValue };
  tool_call_id?: string;
  tool_name?: string;
  arguments?: unknown;
  /**
   * Set on a question a delegated agent asked (`delegate(…, { onExceeded: 'pause' })`): the
   * delegations that lead to it, outermost first. `tool_call_id` is then unique in the whole tree
   * (the delegating calls' ids and the asking call's, joined by `/`); `tool_name` and `arguments`
   * are the asking call's.
   */
  path?: DelegationStep[];
}

/**
 * A question of a pause, bound to the call that asked: `tool_call_id` (the key its answer goes
 * under) and `tool_name` are always there. The one JSON form of a question that leaves a process:
 * in events, checkpoints, the pending index, and `toJSON()` of each request a paused response or
 * `runtime.pending()` hands out.
 */
export type AskedInputRequestJSON = InputRequestJSON & { tool_call_id: string; tool_name: string };

/** Whether a choice option carries a label beside its value. */
export function isLabelledOption(option: ChoiceOption): option is { value: JsonValue; label: string } {
  return (
    typeof option === 'object' && option !== null && !Array.isArray(option) && 'value' in option && 'label' in option
  );
}
