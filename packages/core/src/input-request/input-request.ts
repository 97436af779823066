import { z } from 'zod';
import { currentToolContext } from '../tool/tool-context.js';
import { type InputExpiryOptions, inputExpiryJSON } from './input-expiry.js';
import {
  type AskedInputRequestJSON,
  type ChoiceOption,
  type DelegationStep,
  type InputRequestJSON,
  type InputRequestKind,
  isLabelledOption,
  type JsonValue,
} from './input-request-json.js';
import { validateAnswers } from './validate-answers.js';

export {
  type AskedInputRequestJSON,
  type ChoiceOption,
  type DelegationStep,
  type InputRequestJSON,
  type InputRequestKind,
  isLabelledOption,
  type JsonValue,
} from './input-request-json.js';

const kinds: readonly InputRequestKind[] = ['confirm', 'text', 'choice', 'secret'];

export interface InputRequestOptions extends InputExpiryOptions {
  /** JSON Schema, or a zod schema (kept as its JSON Schema), that the answer must satisfy. */
  schema?: Record<string, unknown> | z.ZodType;
  metadata?: Record<string, JsonValue>;
}

/**
 * A question a tool asks a person. A tool returns one (never throws it); the generation pauses
 * and the request comes back in `response.inputRequests`, with `toolCallId`, `toolName` and
 * `arguments` filled in so a UI can show what is being asked about.
 *
 * @example
 *   if (ctx.answer === undefined) return InputRequest.confirm(`Refund $${amount}?`);
 */
export class InputRequest {
  readonly kind: InputRequestKind;
  readonly prompt: string;
  readonly options: ChoiceOption[] | undefined;
  readonly schema: Record<string, unknown> | undefined;
  readonly metadata: Record<string, JsonValue> | undefined;
  /** When the question stops waiting for a person, if it does. */
  readonly expiresAt: Date | undefined;
  /** What it is answered with then: `'decline'` (its call does not run; the model reads that nobody answered in time), or a given answer. */
  readonly onExpiry: 'decline' | { answer: JsonValue };
  readonly toolCallId: string | undefined;
  // As given: `toJSON()` hands back exactly what `fromJSON()` read.
  private readonly expiresAtText: string | undefined;
  readonly toolName: string | undefined;
  readonly arguments: unknown;
  /** The delegations that lead to a question a delegated agent asked, outermost first. */
  readonly path: DelegationStep[] | undefined;

  private constructor(json: InputRequestJSON) {
    if (!kinds.includes(json.kind)) throw new TypeError(`Unknown input request kind: ${String(json.kind)}`);
    if (typeof json.prompt !== 'string' || json.prompt.trim() === '') {
      throw new TypeError('An input request needs a non-empty prompt');
    }
    if (json.kind === 'choice' && (!Array.isArray(json.options) || json.options.length === 0)) {
      throw new TypeError('A choice input request needs at least one option');
    }
    this.kind = json.kind;
    this.prompt = json.prompt;
    this.options = json.options;
    this.schema = json.schema;
    this.metadata = json.metadata;
    if (json.expires_at !== undefined && Number.isNaN(Date.parse(json.expires_at))) {
      throw new TypeError(`An input request's expires_at must be an ISO time, got ${String(json.expires_at)}`);
    }
    this.expiresAtText = json.expires_at;
    this.expiresAt = json.expires_at === undefined ? undefined : new Date(json.expires_at);
    this.onExpiry = json.on_expiry === undefined ? 'decline' : json.on_expiry;
    this.toolCallId = json.tool_call_id;
    this.toolName = json.tool_name;
    this.arguments = json.arguments;
    this.path = json.path;
  }

  static confirm(prompt: string, options?: InputRequestOptions): InputRequest {
    return InputRequest.create('confirm', prompt, options);
  }

  static text(prompt: string, options?: InputRequestOptions): InputRequest {
    return InputRequest.create('text', prompt, options);
  }

  static choice(prompt: string, options: InputRequestOptions & { options: ChoiceOption[] }): InputRequest {
    return InputRequest.create('choice', prompt, options, options?.options);
  }

  /** An answer that reaches its tool and nothing else: scrubbed everywhere, never stored. */
  static secret(prompt: string, options?: InputRequestOptions): InputRequest {
    return InputRequest.create('secret', prompt, options);
  }

  static fromJSON(json: InputRequestJSON): InputRequest {
    if (typeof json !== 'object' || json === null) throw new TypeError('An input request must be an object');
    return new InputRequest(json);
  }

  static isInstance(value: unknown): value is InputRequest {
    return value instanceof InputRequest;
  }

  /** The answer given for a call of the current generation, from anywhere inside its tool. */
  static answerFor(toolCallId: string | undefined): unknown {
    const context = currentToolContext();
    if (context === undefined || toolCallId === undefined) return undefined;
    return context.answers.get(toolCallId);
  }

  /** The id of the tool call whose body is running now, or undefined outside a tool. */
  static currentToolCallId(): string | undefined {
    return currentToolContext()?.toolCallId;
  }

  /** The values a choice accepts. */
  optionValues(): JsonValue[] {
    return (this.options ?? []).map((option) => (isLabelledOption(option) ? option.value : option));
  }

  /** A copy bound to the call that asked. */
  forCall(call: { id: string; name: string; arguments: unknown }): AskedInputRequest {
    return new InputRequest({
      ...this.toJSON(),
      tool_call_id: call.id,
      tool_name: call.name,
      arguments: call.arguments,
    }) as AskedInputRequest;
  }

  toJSON(): InputRequestJSON {
    const json: InputRequestJSON = { kind: this.kind, prompt: this.prompt };
    if (this.options !== undefined) json.options = this.options;
    if (this.schema !== undefined) json.schema = this.schema;
    if (this.metadata !== undefined) json.metadata = this.metadata;
    if (this.expiresAtText !== undefined) json.expires_at = this.expiresAtText;
    if (this.onExpiry !== 'decline') json.on_expiry = this.onExpiry;
    if (this.toolCallId !== undefined) json.tool_call_id = this.toolCallId;
    if (this.toolName !== undefined) json.tool_name = this.toolName;
    if (this.arguments !== undefined) json.arguments = this.arguments;
    if (this.path !== undefined) json.path = this.path;
    return json;
  }

  private static create(
    kind: InputRequestKind,
    prompt: string,
    options: InputRequestOptions | undefined,
    choiceOptions?: ChoiceOption[],
  ): InputRequest {
    const json: InputRequestJSON = { kind, prompt };
    if (choiceOptions !== undefined) json.options = choiceOptions;
    if (options?.schema !== undefined) json.schema = toJsonSchema(options.schema);
    if (options?.metadata !== undefined) json.metadata = options.metadata;
    Object.assign(json, inputExpiryJSON(options, kind));
    if (json.on_expiry !== undefined) checkExpiryAnswer(json);
    return new InputRequest(json);
  }
}

/**
 * A question a paused generation asks, as `response.inputRequests` and `runtime.pending()` hand it
 * out: bound to the tool call that asked, so `toolCallId` (the key its answer goes under) and
 * `toolName` are always there, and a strict caller can write `answers[request.toolCallId]` without
 * a check. Its `toJSON()` is the question's one JSON form (`AskedInputRequestJSON`).
 */
// (Its own members first: of the two `toJSON` signatures, a call takes the first.)
export type AskedInputRequest = {
  readonly toolCallId: string;
  readonly toolName: string;
  toJSON(): AskedInputRequestJSON;
} & InputRequest;

/** An `onExpiry` answer must fit its question as a person's would, or the deadline would fail to resume it. */
function checkExpiryAnswer(json: InputRequestJSON): void {
  try {
    validateAnswers([{ ...json, tool_call_id: 'on_expiry' }], { on_expiry: json.on_expiry?.answer });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new TypeError(`onExpiry.answer does not fit the question: ${reason}`);
  }
}

function toJsonSchema(schema: Record<string, unknown> | z.ZodType): Record<string, unknown> {
  return schema instanceof z.ZodType ? (z.toJSONSchema(schema) as Record<string, unknown>) : schema;
}
