import type { Checkpoint, CompletedResult } from '../checkpoint/checkpoint.js';
import type { AskedInputRequestJSON } from '../input-request/input-request-json.js';
import type { FinishReason, ProviderMessage, ToolCall, Usage } from '../provider/provider-adapter.js';

export const EVENT_VERSION = 1;

export const EVENT_NAMES = [
  'started',
  'model_responded',
  'tool_started',
  'tool_completed',
  'input_requested',
  'resumed',
  'input_expired',
  'tool_turns_exceeded',
  'completed',
  'failed',
  'cancelled',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

/** What each event carries, snake_case and scrubbed of secrets wherever one can arrive (`scrubEventData`). */
export interface EventData {
  started: {
    service: string;
    provider: string;
    model: string;
    action_name: string;
    /** The opening user turn, provider-native. */
    messages: ProviderMessage[];
    /**
     * The action's params in their JSON form (what a checkpoint is signed with), so the checkpoint
     * of a pause can be rebuilt from the log alone and signed again when the stored one is lost or
     * replaced. Params are the caller's input, never an answer: a secret answer does not reach them.
     */
    params: unknown;
    traceparent?: string;
    /** The conversation the generation inherited (the checkpoint's `conversation_id`); absent when none. */
    conversation_id?: string;
  };
  model_responded: {
    /** Everything appended to the conversation since the previous event that appended: the turn's tool results, then the response. */
    messages: ProviderMessage[];
    tool_calls: ToolCall[];
    text: string;
    finish_reason: FinishReason;
    raw_finish_reason?: string;
    usage?: Usage;
    response_id?: string;
    tool_turns: number;
    tool_choice_cleared: boolean;
    /** The provider paused its own turn (Anthropic `pause_turn`): the loop called it again. */
    continuation?: true;
  };
  /**
   * A tool body is about to run, stored before it does: after a crash or a stall, a call with
   * this event and no `tool_completed` has an unknown outcome and is not run again blindly.
   */
  tool_started: {
    tool_call_id: string;
    tool_name: string;
    /** 1 the first time; more when a call whose outcome was unknown runs again. */
    attempt: number;
    /** Why it runs again: its earlier run stopped mid-call (a worker went away, a run failed). */
    reason?: 'outcome_unknown';
  };
  tool_completed: {
    tool_call_id: string;
    tool_name: string;
  } & CompletedResult;
  input_requested: {
    input_requests: AskedInputRequestJSON[];
    tool_call_turn_size: number;
    approval_tool_calls: string[];
    approved_tool_calls: string[];
    mcp_tool_calls: string[];
    /** The paused delegations' checkpoints, by delegating call (the checkpoint's `delegations`); absent when none. */
    delegations?: Record<string, Checkpoint>;
    tool_turns: number;
    tool_choice_cleared: boolean;
    /** The claim-log slot a resume of this pause claims (the checkpoint's `claim_slot`). */
    claim_slot: number;
    traceparent?: string;
    /** When the paused checkpoint expires (the runtime's `checkpointTtlMs`). */
    expires_at?: string;
  };
  resumed: {
    /**
     * Calls answered, by id; the values stay out (they may be secret). On a resume its deadline
     * made, the calls nobody answered are left out of both lists (`input_expired` names them).
     */
    answered_tool_calls: string[];
    /** Calls answered `false`: declined. */
    declined_tool_calls: string[];
    traceparent?: string;
  };
  /**
   * Nobody answered in time: the pause's deadline passed and the generation resumes (the
   * `resumed` event follows) with each question's expiry outcome.
   */
  input_expired: {
    /** The deadline that passed (the checkpoint's `input_expires_at`). */
    input_expires_at: string;
    /**
     * Calls nobody answered (their questions set no `on_expiry` answer): they do not run, and the
     * model reads `{"error":"no answer in time"}`, not a person's decline.
     */
    unanswered_tool_calls: string[];
    /** Calls given their `on_expiry` answer (the values stay out, like every answer). */
    answered_tool_calls: string[];
  };
  /** `runtime.cancel()` closed the generation at its pause: its checkpoint is consumed, nothing more runs. */
  cancelled: {
    reason: string;
    /** The claim-log slot the cancel took, the one a resume of the pause would have claimed. */
    claim_slot: number;
  };
  tool_turns_exceeded: { tool_turns: number; max_tool_turns: number; messages: ProviderMessage[] };
  completed: { text: string; finish_reason: FinishReason; raw_finish_reason?: string };
  failed: { error: { name: string; message: string; code?: string } };
}

/**
 * One transition of one generation, as published on
 * `interlude.gen.<agent>.<action>.<generation_id>.<event>` and kept in the event log.
 * `id` is deterministic (generation, run, index, and the epoch past the first), so a retried or
 * replayed publish is stored once, while a run taken over by another worker writes its own.
 */
export type GenerationEvent = {
  [Name in EventName]: {
    version: 1;
    id: string;
    event: Name;
    agent: string;
    action: string;
    generation_id: string;
    /** Which run of the generation: `start`, or a digest of the checkpoint a resume started from. */
    run: string;
    /** Position within the run, from 0. */
    index: number;
    /**
     * Which holder of the run published it: absent for the first, 2 and up for each worker that
     * took the run over from one that stalled or died. Readers keep a run's latest epoch.
     */
    epoch?: number;
    time: string;
    data: EventData[Name];
  };
}[EventName];

export type EventOf<Name extends EventName> = Extract<GenerationEvent, { event: Name }>;
