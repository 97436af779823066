import { z } from 'zod';
import type { InputRequestJSON } from '../input-request/input-request.js';
import type { Checkpoint } from './checkpoint.js';

const inputRequestShape = z
  .looseObject({
    kind: z.enum(['confirm', 'text', 'choice', 'secret']),
    prompt: z.string(),
    tool_call_id: z.string(),
    options: z.array(z.unknown()).min(1).optional(),
    schema: z.record(z.string(), z.unknown()).optional(),
    expires_at: z.string().optional(),
  })
  .refine((request) => request.kind !== 'choice' || request.options !== undefined, {
    message: 'a choice request needs its options',
  });

/**
 * Every field's type, with readable messages for a checkpoint that is malformed. The fields left
 * out at their default are optional (`withCheckpointDefaults` fills them in).
 */
export const checkpointShape = z.object({
  version: z.number(),
  service: z.string(),
  provider: z.string(),
  model: z.string(),
  action_name: z.string(),
  tool_turns: z.number().int().nonnegative(),
  tool_choice_cleared: z.boolean().optional(),
  messages: z.array(z.unknown()),
  tool_call_turn_size: z.number().int().optional(),
  completed_results: z.record(
    z.string(),
    z.object({ tool_name: z.string(), result: z.unknown(), is_error: z.boolean().optional() }),
  ),
  input_requests: z.array(inputRequestShape),
  approval_tool_calls: z.array(z.string()).optional(),
  approved_tool_calls: z.array(z.string()).optional(),
  mcp_tool_calls: z.array(z.string()).optional(),
  // Each delegated checkpoint is checked in full when its own generation resumes.
  delegations: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
  agent: z.string(),
  generation_id: z.string().min(1),
  claim_slot: z.number().int().nonnegative(),
  traceparent: z.string().optional(),
  audience: z.string().optional(),
  expires_at: z.string().optional(),
  input_expires_at: z.string().optional(),
  key_id: z.string().optional(),
  signature: z.string().optional(),
});

/**
 * True only for a value `checkpointShape` accepts, checked by hand. Once zod's shared parsing code
 * has seen the many shapes of a real process it costs tens of microseconds a checkpoint (about
 * 1.5 µs in a micro-benchmark); this check costs about one. It is stricter than the schema (plain
 * objects only, no own `constructor` or `__proto__`, no symbol keys), so a value it refuses still
 * gets zod's verdict and message: it may only ever say yes where zod says yes.
 */
export function hasCheckpointShape(value: unknown): value is Checkpoint {
  if (!isPlainRecord(value)) return false;
  const checkpoint = value as { readonly [Key in keyof Checkpoint]?: unknown };
  return (
    typeof checkpoint.version === 'number' &&
    Number.isFinite(checkpoint.version) &&
    areStrings(checkpoint.service, checkpoint.provider, checkpoint.model, checkpoint.action_name, checkpoint.agent) &&
    isCount(checkpoint.tool_turns) &&
    (checkpoint.tool_choice_cleared === undefined || typeof checkpoint.tool_choice_cleared === 'boolean') &&
    Array.isArray(checkpoint.messages) &&
    (checkpoint.tool_call_turn_size === undefined || Number.isSafeInteger(checkpoint.tool_call_turn_size)) &&
    isCompletedResults(checkpoint.completed_results) &&
    Array.isArray(checkpoint.input_requests) &&
    checkpoint.input_requests.every(isInputRequest) &&
    isOptionalStringList(checkpoint.approval_tool_calls) &&
    isOptionalStringList(checkpoint.approved_tool_calls) &&
    isOptionalStringList(checkpoint.mcp_tool_calls) &&
    (checkpoint.delegations === undefined ||
      (isPlainRecord(checkpoint.delegations) &&
        Object.values(checkpoint.delegations as Record<string, unknown>).every(isPlainRecord))) &&
    typeof checkpoint.generation_id === 'string' &&
    checkpoint.generation_id.length > 0 &&
    isCount(checkpoint.claim_slot) &&
    isOptionalString(checkpoint.traceparent) &&
    isOptionalString(checkpoint.audience) &&
    isOptionalString(checkpoint.expires_at) &&
    isOptionalString(checkpoint.input_expires_at) &&
    isOptionalString(checkpoint.key_id) &&
    isOptionalString(checkpoint.signature)
  );
}

const requestKinds: ReadonlySet<unknown> = new Set(['confirm', 'text', 'choice', 'secret']);

function isInputRequest(value: unknown): boolean {
  if (!isPlainRecord(value)) return false;
  const request = value as { readonly [Key in keyof InputRequestJSON]?: unknown };
  const { options, schema } = request;
  return (
    requestKinds.has(request.kind) &&
    areStrings(request.prompt, request.tool_call_id) &&
    (options === undefined ? request.kind !== 'choice' : Array.isArray(options) && options.length > 0) &&
    (schema === undefined || isPlainRecord(schema)) &&
    isOptionalString(request.expires_at)
  );
}

function isCompletedResults(value: unknown): boolean {
  if (!isPlainRecord(value)) return false;
  for (const result of Object.values(value as Record<string, unknown>)) {
    if (!isPlainRecord(result)) return false;
    // zod refuses a result that is missing (`z.unknown()` keys are not optional in an object).
    const { tool_name, result: value, is_error } = result as Record<string, unknown>;
    if (typeof tool_name !== 'string' || value === undefined) return false;
    if (is_error !== undefined && typeof is_error !== 'boolean') return false;
  }
  return true;
}

function isPlainRecord(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.getPrototypeOf(value) === Object.prototype &&
    !Object.hasOwn(value, 'constructor') &&
    !Object.hasOwn(value, '__proto__') &&
    Object.getOwnPropertySymbols(value).length === 0
  );
}

function areStrings(...values: unknown[]): boolean {
  return values.every((value) => typeof value === 'string');
}

function isOptionalStringList(value: unknown): boolean {
  return value === undefined || isStringList(value);
}

function isStringList(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (let index = 0; index < value.length; index += 1) if (typeof value[index] !== 'string') return false;
  return true;
}

function isCount(value: unknown): boolean {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

function isOptionalString(value: unknown): boolean {
  return value === undefined || typeof value === 'string';
}
