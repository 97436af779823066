import type { InputRequestJSON } from '../input-request/input-request.js';
import type { ProviderMessage } from '../provider/provider-adapter.js';

export const CHECKPOINT_VERSION = 2;

/** Every checkpoint version this release resumes; it writes only the latest. */
export const READABLE_CHECKPOINT_VERSIONS: readonly number[] = [1, 2];

/**
 * The machine context of a paused generation, as plain snake_case JSON. Keys are written in
 * this order so a signed checkpoint serialises the same way everywhere. It never holds a secret
 * answer.
 */
export interface Checkpoint {
  version: 2;
  service: string;
  provider: string;
  model: string;
  action_name: string;
  tool_turns: number;
  tool_choice_cleared: boolean;
  /** Provider-native, without the messages derived from instructions. */
  messages: ProviderMessage[];
  /** How many trailing items of `messages` make up the paused tool-call turn. */
  tool_call_turn_size: number;
  /** Results of the paused turn's calls that already ran, by tool call id. */
  completed_results: Record<string, CompletedResult>;
  input_requests: InputRequestJSON[];
  /** Calls paused on an approval gate. */
  approval_tool_calls: string[];
  /** Gated calls already approved: they run without being gated again. */
  approved_tool_calls: string[];
  /** Paused calls that go to an MCP server. */
  mcp_tool_calls: string[];
  agent: string;
  generation_id: string;
  /**
   * The claim-log slot a resume of this checkpoint must claim: taken by anyone else, the
   * checkpoint was resumed already (or its run was taken over), for good.
   */
  claim_slot: number;
  traceparent?: string;
  /** HMAC-SHA256 over the rest, when the runtime has a checkpoint key. */
  signature?: string;
}

/**
 * A checkpoint written by release 1 (no `claim_slot`). It still resumes: its claim is keyed by
 * its digest instead.
 */
export type CheckpointV1 = Omit<Checkpoint, 'version' | 'claim_slot'> & { version: 1 };

/** A checkpoint of any version this release resumes. */
export type AnyCheckpoint = Checkpoint | CheckpointV1;

export interface CompletedResult {
  tool_name: string;
  result: unknown;
  is_error: boolean;
}

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
  'agent',
  'generation_id',
  'claim_slot',
  'traceparent',
  'signature',
] as const satisfies readonly (keyof Checkpoint)[];

export function orderCheckpoint<Version extends AnyCheckpoint>(checkpoint: Version): Version {
  const ordered: Record<string, unknown> = {};
  const fields = checkpoint as Partial<Record<(typeof CHECKPOINT_KEYS)[number], unknown>>;
  for (const key of CHECKPOINT_KEYS) {
    if (fields[key] !== undefined) ordered[key] = fields[key];
  }
  return ordered as unknown as Version;
}

/** A checkpoint's canonical JSON: its keys in their written order, whatever order it arrived in. */
export function canonicalCheckpoint(checkpoint: AnyCheckpoint): string {
  return JSON.stringify(orderCheckpoint(checkpoint));
}
