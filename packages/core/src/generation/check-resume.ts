import type { AgentBase } from '../agent/agent-types.js';
import { type Checkpoint, canonicalCheckpoint } from '../checkpoint/checkpoint.js';
import { type CheckpointState, withCheckpointDefaults } from '../checkpoint/checkpoint-defaults.js';
import { assertCheckpointVersion, parseCheckpoint } from '../checkpoint/parse-checkpoint.js';
import { canonicalOf, type KeysLike, verifyCheckpoint } from '../checkpoint/sign-checkpoint.js';
import { ResumeError } from '../errors/resume-error.js';
import { expiryAnswers, hasExpired, refuseExpired } from '../input-request/input-deadline.js';
import { validateAnswers } from '../input-request/validate-answers.js';
import { MAX_NESTING_DEPTH, nestsDeeperThan } from '../json/nesting-depth.js';
import type { ProviderAdapter, ToolCall } from '../provider/provider-adapter.js';

export interface CheckedResume {
  /** As handed in: signed in this form, so this is what a job carries on to a worker. */
  checkpoint: Checkpoint;
  /** The same with the defaults a version 3 checkpoint leaves out filled in: what the resume reads. */
  state: CheckpointState;
  /** Its canonical form (`canonicalCheckpoint`): what claims compare and run keys hash. */
  canonical: string;
  answers: Map<string, unknown>;
  /** The paused turn's calls, in the order the model asked for them. */
  turnCalls: ToolCall[];
}

/**
 * `checkResume` for one action of an agent run with `params`, on a resume's
 * `{ checkpoint, answers }`: the runtime's keys and deployment are what it must match.
 */
export async function checkResumeFor(
  agent: AgentBase,
  actionName: string,
  params: unknown,
  input: unknown,
  expiring = false,
  verified?: VerifiedPause,
): Promise<CheckedResume> {
  if (typeof input !== 'object' || input === null)
    throw new ResumeError('invalid_checkpoint', 'resume needs { checkpoint, answers }');
  const { checkpoint, answers } = input as { checkpoint?: unknown; answers?: unknown };
  const { runtime } = agent;
  return checkResume(checkpoint, answers, {
    agent: agent.name,
    actionName,
    adapter: agent.provider,
    keys: runtime.keys,
    params,
    audience: await runtime.audience(),
    expiring,
    ...(verified && { verified }),
  });
}

/** What a resume must match: this agent, action and provider, the keys, params and deployment. */
export interface ResumeExpectations {
  agent: string;
  actionName: string;
  adapter: ProviderAdapter;
  /** Undefined when signing is off. */
  keys: KeysLike | undefined;
  /** The params the action runs with: the signature covers them. */
  params: unknown;
  audience: string | undefined;
  /**
   * The resume its deadline makes (see `InputRequest`'s `expiresIn`): the answers are each
   * question's `on_expiry` outcome, whatever was given, and the deadline must have passed. Any
   * other resume after the deadline is refused with `expired`.
   */
  expiring?: boolean;
  /**
   * The pause a resume by id loaded and verified just before (`storedPause`): when `value` is that
   * very object, its shape is not checked again and its signature is checked over the canonical
   * JSON made then, with the params of this resume. A resume by id serializes its checkpoint once.
   */
  verified?: VerifiedPause;
}

/** A checkpoint object `storedPause` verified, and the canonical JSON its signature was checked over (with keys). */
export interface VerifiedPause {
  checkpoint: unknown;
  unsigned: string | undefined;
}

/**
 * Every check a resume makes before anything runs: format, signature (over the checkpoint and
 * the params), deployment and expiry, that the checkpoint belongs to this agent, action, provider
 * and model, that its turn is consistent, and that the answers fit the questions. Throws
 * `ResumeError`; changes nothing.
 */
export function checkResume(value: unknown, answers: unknown, expected: ResumeExpectations): CheckedResume {
  // The signature first: any field a client altered is `bad_signature`, whatever it broke.
  const known = expected.verified?.checkpoint === value ? expected.verified : undefined;
  if (known === undefined) assertCheckpointVersion(value);
  if (nestsDeeperThan(answers)) {
    throw new ResumeError('invalid_checkpoint', `The answers nest deeper than ${MAX_NESTING_DEPTH} levels`);
  }
  const { unsigned } = verifyCheckpoint(value as Checkpoint, expected.keys, {
    params: expected.params,
    audience: expected.audience,
    ...(known?.unsigned !== undefined && { unsigned: known.unsigned }),
  });
  const checkpoint = known === undefined ? parseCheckpoint(value) : (value as Checkpoint);
  const { adapter } = expected;
  if (checkpoint.agent !== expected.agent) {
    throw new ResumeError(
      'agent_mismatch',
      `The checkpoint was taken by agent ${checkpoint.agent}, not ${expected.agent}`,
    );
  }
  if (checkpoint.action_name !== expected.actionName) {
    throw new ResumeError(
      'action_mismatch',
      `The checkpoint was taken by action ${checkpoint.action_name}, not ${expected.actionName}`,
    );
  }
  if (checkpoint.service !== adapter.service || checkpoint.provider !== adapter.provider) {
    throw new ResumeError(
      'provider_mismatch',
      `The checkpoint was taken with ${checkpoint.service}/${checkpoint.provider}, not ${adapter.service}/${adapter.provider}`,
    );
  }
  if (checkpoint.model !== adapter.model) {
    throw new ResumeError(
      'model_mismatch',
      `The checkpoint was taken with model ${checkpoint.model}, not ${adapter.model}`,
    );
  }
  const state = withCheckpointDefaults(checkpoint);
  const turnCalls = pausedTurnCalls(state, adapter);
  checkTurnMatches(state, turnCalls);
  const checkedAnswers = validateAnswers(state.input_requests, answersAtDeadline(state, answers, expected));
  const canonical = canonicalCheckpoint(checkpoint, unsigned ?? canonicalOf(checkpoint));
  return { checkpoint, state, canonical, answers: checkedAnswers, turnCalls };
}

/** The answers to check: as given before the deadline, the expiry outcomes when the deadline resumes it. */
function answersAtDeadline(checkpoint: CheckpointState, answers: unknown, expected: ResumeExpectations): unknown {
  if (checkpoint.input_expires_at !== undefined && Number.isNaN(Date.parse(checkpoint.input_expires_at))) {
    throw new ResumeError('invalid_checkpoint', 'The checkpoint input_expires_at is not a time');
  }
  if (expected.expiring !== true) {
    if (hasExpired(checkpoint)) throw refuseExpired(checkpoint);
    return answers;
  }
  if (!hasExpired(checkpoint)) {
    // A timer delivered early (clocks apart): an error, not a refusal, so it is tried again.
    throw new Error(`Generation ${checkpoint.generation_id} waits until ${checkpoint.input_expires_at ?? 'an answer'}`);
  }
  return expiryAnswers(checkpoint);
}

function pausedTurnCalls(checkpoint: CheckpointState, adapter: ProviderAdapter): ToolCall[] {
  const size = checkpoint.tool_call_turn_size;
  if (size < 1 || size > checkpoint.messages.length) {
    throw new ResumeError('no_tool_call_turn', `The checkpoint has no tool-call turn (tool_call_turn_size ${size})`);
  }
  let calls: ToolCall[];
  try {
    calls = adapter.toolCallsIn(checkpoint.messages.slice(-size));
  } catch (error) {
    throw new ResumeError('no_tool_call_turn', 'The checkpoint turn cannot be read as tool calls', { cause: error });
  }
  if (calls.length === 0) throw new ResumeError('no_tool_call_turn', 'The checkpoint turn holds no tool call');
  return calls;
}

function checkTurnMatches(checkpoint: CheckpointState, calls: ToolCall[]): void {
  const callIds = new Set(calls.map((call) => call.id));
  const accounted = new Set<string>();
  for (const callId of Object.keys(checkpoint.completed_results)) {
    if (!callIds.has(callId)) {
      throw new ResumeError('turn_mismatch', `The checkpoint has a result for ${callId}, which its turn never called`, {
        toolCallId: callId,
      });
    }
    accounted.add(callId);
  }
  const delegated = new Set(Object.keys(checkpoint.delegations));
  for (const callId of delegated) {
    if (!callIds.has(callId) || accounted.has(callId)) {
      throw new ResumeError('turn_mismatch', `The checkpoint delegates ${callId}, which its turn does not leave open`, {
        toolCallId: callId,
      });
    }
  }
  const asking = new Set<string>();
  for (const request of checkpoint.input_requests) {
    const callId = request.tool_call_id as string;
    // A delegated agent's question: its first step is the delegating call of this turn.
    const via = request.path?.[0]?.tool_call_id;
    if (via !== undefined) {
      if (!delegated.has(via) || !callId.startsWith(`${via}/`) || asking.has(callId)) {
        throw new ResumeError('turn_mismatch', `The checkpoint waits on ${callId}, which no paused delegation asks`, {
          toolCallId: callId,
        });
      }
      asking.add(callId);
      accounted.add(via);
      continue;
    }
    if (!callIds.has(callId) || accounted.has(callId) || delegated.has(callId)) {
      throw new ResumeError('turn_mismatch', `The checkpoint waits on ${callId}, which its turn does not leave open`, {
        toolCallId: callId,
      });
    }
    accounted.add(callId);
  }
  for (const callId of delegated) {
    if (![...asking].some((id) => id.startsWith(`${callId}/`))) {
      throw new ResumeError('turn_mismatch', `The checkpoint delegates ${callId}, which asks nothing`, {
        toolCallId: callId,
      });
    }
  }
  for (const callId of checkpoint.approval_tool_calls) {
    if (!checkpoint.input_requests.some((request) => request.tool_call_id === callId)) {
      throw new ResumeError('turn_mismatch', `The checkpoint gates ${callId}, which waits on no request`, {
        toolCallId: callId,
      });
    }
  }
  for (const call of calls) {
    if (!accounted.has(call.id)) {
      throw new ResumeError(
        'turn_mismatch',
        `Call ${call.id} (${call.name}) has neither a result nor a request in the checkpoint`,
        {
          toolCallId: call.id,
        },
      );
    }
  }
  if (checkpoint.input_requests.length === 0) {
    throw new ResumeError('turn_mismatch', 'The checkpoint waits on no request');
  }
}
