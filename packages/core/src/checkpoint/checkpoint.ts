import type { AskedInputRequestJSON } from '../input-request/input-request-json.js';
import type { ProviderMessage } from '../provider/provider-adapter.js';
import { canonicalJson } from '../trust/canonical-json.js';

/** The one checkpoint format: what this release writes and the only one it reads. */
export const CHECKPOINT_VERSION = 3;

/**
 * The machine context of a paused generation, as plain snake_case JSON, keys written in one
 * order so every writer agrees byte for byte. It never holds a secret answer. A signed one is a
 * capability: it lets whoever holds it resume exactly this pause, with these params, in this
 * deployment, until it expires.
 *
 * It leaves out what holds its default (`checkpoint-defaults.ts`): `tool_choice_cleared` false,
 * `tool_call_turn_size` 1, empty call lists and a result's `is_error` false. Read it through
 * `withCheckpointDefaults`. `claim_slot` is always written, 0 included: it says which pause this
 * is, and every store keyed by it (timers, expiry jobs, the pending view) reads it back as written.
 */
export interface Checkpoint {
  version: 3;
  service: string;
  provider: string;
  model: string;
  action_name: string;
  tool_turns: number;
  /** Left out when false. */
  tool_choice_cleared?: boolean;
  /** Provider-native, without the messages derived from instructions. */
  messages: ProviderMessage[];
  /** How many trailing items of `messages` make up the paused tool-call turn (left out when 1). */
  tool_call_turn_size?: number;
  /** Results of the paused turn's calls that already ran, by tool call id. */
  completed_results: Record<string, StoredResult>;
  input_requests: AskedInputRequestJSON[];
  /** Calls paused on an approval gate (this list and the next two are left out when empty). */
  approval_tool_calls?: string[];
  /** Gated calls already approved: they run without being gated again. */
  approved_tool_calls?: string[];
  /** Paused calls that go to an MCP server. */
  mcp_tool_calls?: string[];
  /**
   * Paused delegations (`delegate(…, { onExceeded: 'pause' })`), by the delegating call's id: the
   * delegated generation's own checkpoint, signed with its params, whose questions are this
   * checkpoint's questions with that call's id and `/` in front. Left out of version 3 when empty.
   */
  delegations?: Record<string, Checkpoint>;
  agent: string;
  generation_id: string;
  /**
   * The claim-log slot a resume of this checkpoint must claim: taken by anyone else, the
   * checkpoint was resumed already (or its run was taken over), for good.
   */
  claim_slot: number;
  traceparent?: string;
  /**
   * The conversation (`gen_ai.conversation.id`) the generation joined when it started, inherited
   * from a job's `conversation_id` or the generation it ran inside: its resume joins it too. Left
   * out when the agent names its own (`conversationId`) or it is the generation id.
   */
  conversation_id?: string;
  /** The deployment that took it: another deployment refuses it, whatever key it holds. */
  audience?: string;
  /** ISO time after which a resume is refused (`expired`); none when the runtime sets no TTL. */
  expires_at?: string;
  /**
   * When the pause's questions stop waiting: the earliest `expires_at` among them. At that time
   * the generation resumes with each question's `on_expiry` outcome, and a person's answer is
   * refused (`expired`). Absent when no question expires, and in checkpoints of earlier releases.
   */
  input_expires_at?: string;
  /** Which key signed it: the first 8 hex digits of the key's SHA-256. */
  key_id?: string;
  /**
   * HMAC-SHA256 over the RFC 8785 canonical JSON of the rest of the checkpoint and the action's
   * params, in base64url (43 characters).
   */
  signature?: string;
}

export interface CompletedResult {
  tool_name: string;
  result: unknown;
  is_error: boolean;
}

/** A completed result as a checkpoint stores it: `is_error` left out when false. */
export type StoredResult = Omit<CompletedResult, 'is_error'> & { is_error?: boolean };

/** Keys in their written order; `orderCheckpoint` uses it so every writer agrees byte for byte. */
export const CHECKPOINT_KEYS = [
  'version',
  'service',
  'provider',
  'model',
  'action_name',
  'tool_turns',
  'tool_choice_cleared',
  'messages',
  'tool_call_turn_size',
  'completed_results',
  'input_requests',
  'approval_tool_calls',
  'approved_tool_calls',
  'mcp_tool_calls',
  'delegations',
  'agent',
  'generation_id',
  'claim_slot',
  'traceparent',
  'conversation_id',
  'audience',
  'expires_at',
  'input_expires_at',
  'key_id',
  'signature',
] as const satisfies readonly (keyof Checkpoint)[];

export function orderCheckpoint(checkpoint: Checkpoint): Checkpoint {
  const ordered: Record<string, unknown> = {};
  for (const key of CHECKPOINT_KEYS) {
    if (checkpoint[key] !== undefined) ordered[key] = checkpoint[key];
  }
  return ordered as unknown as Checkpoint;
}

/**
 * The RFC 8785 canonical JSON of everything in a checkpoint but its signature: the same text
 * whatever order its keys (nested ones included) came back in from a store. What the signature
 * covers, with the params.
 */
export function canonicalUnsigned(checkpoint: Checkpoint): string {
  const { signature: _signature, ...unsigned } = checkpoint;
  return canonicalJson(unsigned);
}

/**
 * A checkpoint's canonical form: its canonical JSON without the signature, a newline, then the
 * signature. Two copies of one checkpoint always compare equal; claims compare it and run keys
 * hash it. `unsigned` is `canonicalUnsigned(checkpoint)` when the caller has it already.
 */
export function canonicalCheckpoint(checkpoint: Checkpoint, unsigned = canonicalUnsigned(checkpoint)): string {
  return `${unsigned}\n${typeof checkpoint.signature === 'string' ? checkpoint.signature : ''}`;
}
