// The wire form of a question, apart from the class that builds it: validating answers and
// reading expiry need the shape, and the class needs them, so the shape sits below both.

export type InputRequestKind = 'confirm' | 'text' | 'choice' | 'secret';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type ChoiceOption = JsonValue | { value: JsonValue; label: string };

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
}

/** Whether a choice option carries a label beside its value. */
export function isLabelledOption(option: ChoiceOption): option is { value: JsonValue; label: string } {
  return (
    typeof option === 'object' && option !== null && !Array.isArray(option) && 'value' in option && 'label' in option
  );
}
