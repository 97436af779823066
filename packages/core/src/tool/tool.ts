import { z } from 'zod';
import { type InputExpiryOptions, inputExpiryJSON } from '../input-request/input-expiry.js';
import type { InputRequest } from '../input-request/input-request.js';
import type { JsonSchema, ToolSpec } from '../provider/provider-adapter.js';
import { type ApprovalRule, checkRule } from './approval-rule.js';

/** What a tool body can read about the call it serves. */
export interface ToolContext {
  /** The person's answer to this call's question; undefined on the first run. */
  answer: unknown;
  toolCallId: string;
  /** True when this run happens in a resumed generation. */
  resuming: boolean;
  signal: AbortSignal;
  generationId: string;
  /**
   * Stable for this call of this generation, whichever worker runs it, however often it is
   * resumed or delivered again: hand it to APIs that take an idempotency key (payment
   * providers do), so a call run again after an unknown outcome is not applied twice there.
   */
  idempotencyKey: string;
}

export type ToolReturn = unknown;

/** A tool the model can call. Build one with `tool()`. */
export interface Tool<Input = unknown> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  /** Parses the model's arguments; a failure goes back to the model as an error result. */
  parse(args: unknown): { success: true; data: Input } | { success: false; error: string };
  run(input: Input, context: ToolContext): Promise<ToolReturn | InputRequest> | ToolReturn | InputRequest;
  /** Set by MCP tools: the call goes to an MCP server (recorded in `mcp_tool_calls`). */
  readonly mcpServer?: string;
  /**
   * The tool's own approval gate: `true` (every call waits) or a rule. An action's rule for the
   * tool (`requiresApproval`) replaces it. MCP tools carry their server's `requireApproval`.
   */
  readonly requiresApproval?: boolean | ApprovalRule<Input>;
  /** Safe to run again when a run stopped mid-call and its outcome is unknown (see `tool()`). */
  readonly idempotent?: boolean;
  /** When a call's approval question (`requiresApproval`) expires, and with what outcome. */
  readonly approvalExpiry?: InputExpiryOptions;
}

export interface ToolDefinition<Schema extends z.ZodType> {
  name: string;
  description: string;
  input: Schema;
  run(input: z.output<Schema>, context: ToolContext): Promise<unknown> | unknown;
  /**
   * Running it twice does no harm (a lookup, or a write keyed by `ctx.idempotencyKey`). When a
   * worker stops mid-call (it died, or stalled past its lease) nobody knows whether the call took
   * effect: an idempotent tool then simply runs again; any other becomes a question to a person
   * ("… stopped mid-call; run it again?"). Default false.
   */
  idempotent?: boolean;
  /**
   * The tool's own approval gate, used when the action gives none for it: `true` (every call
   * waits for a person) or a rule: `{ when: (input) => input.amount > 100, prompt: (input) =>
   * 'Refund $' + input.amount + '?' }`. An action's `requiresApproval` entry for the tool replaces it.
   */
  requiresApproval?: boolean | ApprovalRule<z.output<Schema>>;
  /**
   * When the approval question of a gated call (`requiresApproval`) stops waiting, and what it
   * is answered with then (declined by default): `{ expiresIn: 3_600_000 }`.
   */
  approvalExpiry?: InputExpiryOptions;
}

const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Defines a tool. `input` is a zod schema: the model's arguments are parsed with it before `run`
 * (a parse failure goes back to the model as `{ "error": … }` and `run` is not called) and the
 * provider is sent its JSON Schema. `run` returns a result, or an `InputRequest` to pause and ask.
 * `idempotent: true` lets a call whose outcome a stopped worker left unknown run again without
 * asking a person first.
 *
 * @example
 *   const lookupOrder = tool({
 *     name: 'lookup_order', description: 'Find an order',
 *     input: z.object({ order_id: z.number() }),
 *     run: async ({ order_id }) => orders.get(order_id),
 *   });
 */
export function tool<Schema extends z.ZodType>(definition: ToolDefinition<Schema>): Tool<z.output<Schema>> {
  if (!toolNamePattern.test(definition.name)) {
    throw new TypeError(`Tool names are 1-64 letters, digits, _ or -: got ${JSON.stringify(definition.name)}`);
  }
  if (!(definition.input instanceof z.ZodType)) {
    throw new TypeError(`Tool ${definition.name} needs a zod schema as input`);
  }
  // A bad expiry fails here, where the tool is defined, not when a call is first gated.
  if (definition.approvalExpiry !== undefined) inputExpiryJSON(definition.approvalExpiry, 'confirm');
  const ownGate = definition.requiresApproval;
  if (ownGate !== undefined && typeof ownGate !== 'boolean') {
    if (typeof ownGate !== 'object' || ownGate === null) {
      throw new TypeError(`requiresApproval of tool ${definition.name} must be true, false or { when?, prompt? }`);
    }
    checkRule(ownGate, `requiresApproval of tool ${definition.name}`);
  }
  const inputSchema = jsonSchemaOf(definition.input);
  return {
    name: definition.name,
    description: definition.description,
    inputSchema,
    parse(args) {
      const parsed = definition.input.safeParse(args);
      if (parsed.success) return { success: true, data: parsed.data };
      return { success: false, error: `Invalid arguments for ${definition.name}: ${z.prettifyError(parsed.error)}` };
    },
    run: definition.run,
    ...(definition.idempotent === true && { idempotent: true }),
    ...(ownGate !== undefined && ownGate !== false && { requiresApproval: ownGate }),
    ...(definition.approvalExpiry !== undefined && { approvalExpiry: definition.approvalExpiry }),
  };
}

/**
 * Agents and their tools are often built afresh per request or per resume, from schemas defined
 * once at module level: converting a schema is the costly part of `tool()` (about 0.1 ms for a
 * small object), so each schema object is converted once. Frozen, because every tool built from
 * the schema shares it.
 */
const jsonSchemas = new WeakMap<z.ZodType, JsonSchema>();

function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const cached = jsonSchemas.get(schema);
  if (cached !== undefined) return cached;
  const converted = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete converted['$schema'];
  const frozen = deepFreeze(converted);
  jsonSchemas.set(schema, frozen);
  return frozen;
}

function deepFreeze<Value>(value: Value): Value {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

export function toToolSpec(tool: Tool): ToolSpec {
  return { name: tool.name, description: tool.description, inputSchema: tool.inputSchema };
}
