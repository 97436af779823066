import type { Checkpoint } from '../checkpoint/checkpoint.js';
import { verifyCheckpoint } from '../checkpoint/sign-checkpoint.js';
import { ResumeError } from '../errors/resume-error.js';
import { TrustError } from '../errors/trust-error.js';
import type { GenerationResponse } from '../generation/generation-response.js';
import type { InputRequestJSON } from '../input-request/input-request.js';
import type { Runtime } from '../runtime/runtime.js';
import {
  type AnswerTokenClaims,
  type AnswerTokenOptions,
  answerDigestOf,
  signAnswerToken,
  verifyAnswerToken,
} from '../trust/answer-token.js';
import type { CheckpointKeys } from '../trust/checkpoint-keys.js';
import { notStored } from './not-stored.js';
import { storedPause } from './stored-pause.js';

/** How long an answer token lasts when `expiresIn` is not given (and the question does not end sooner). */
export const DEFAULT_ANSWER_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

export type { AnswerTokenOptions } from '../trust/answer-token.js';

/**
 * An answer token for each question of a paused checkpoint, by tool call id: what a paused
 * response hands the app (`response.answerTokens`). None when signing is off.
 */
export function answerTokensOf(
  keys: CheckpointKeys | undefined,
  checkpoint: Checkpoint,
  now: number = Date.now(),
): Record<string, string> {
  if (keys === undefined) return {};
  const tokens: Record<string, string> = {};
  for (const request of checkpoint.input_requests) {
    if (request.tool_call_id === undefined) continue;
    tokens[request.tool_call_id] = tokenFor(keys, checkpoint, request, now + DEFAULT_ANSWER_TOKEN_TTL_MS);
  }
  return tokens;
}

/**
 * `response.answerTokens`, signed when first read (by the app, `JSON.stringify`, a spread) and
 * issued as of the pause: each token is an HMAC and a SHA-256 of canonical JSON, which a pause
 * whose app never reads them (most answer by checkpoint or by id) would pay for nothing.
 */
export function lazyAnswerTokens(
  response: GenerationResponse,
  keys: CheckpointKeys | undefined,
  checkpoint: Checkpoint,
): void {
  const pausedAt = Date.now();
  // As paused: what the app does to `response.checkpoint` before reading them changes no token.
  const asked = { ...checkpoint, input_requests: checkpoint.input_requests.map((request) => ({ ...request })) };
  const settle = (value: Record<string, string>) => {
    Object.defineProperty(response, 'answerTokens', { value, writable: true, enumerable: true, configurable: true });
    return value;
  };
  Object.defineProperty(response, 'answerTokens', {
    get: () => settle(answerTokensOf(keys, asked, pausedAt)),
    set: settle,
    enumerable: true,
    configurable: true,
  });
}

/**
 * `runtime.answerToken(generationId, toolCallId, options)`: a token that answers that one question
 * of the generation's current pause, and nothing else. Throws `ResumeError` `not_found` when no
 * pause of this deployment is stored, `unknown_call` when it does not ask that call, and a
 * `TypeError` for a bad `expiresIn`.
 */
export async function issueAnswerToken(
  runtime: Runtime,
  generationId: string,
  toolCallId: string,
  options: AnswerTokenOptions = {},
): Promise<string> {
  const expiresIn = options.expiresIn ?? DEFAULT_ANSWER_TOKEN_TTL_MS;
  if (typeof expiresIn !== 'number' || !Number.isFinite(expiresIn) || expiresIn <= 0) {
    throw new TypeError(`expiresIn must be a positive number of milliseconds, got ${String(expiresIn)}`);
  }
  if (runtime.keys === undefined) {
    throw new TypeError('answerToken() needs a signing key: this runtime was made with checkpointKey: false');
  }
  const checkpoint = await verifiedPause(runtime, generationId);
  const request = checkpoint.input_requests.find((candidate) => candidate.tool_call_id === toolCallId);
  if (request === undefined) {
    throw new ResumeError('unknown_call', `Generation ${generationId} asks no question for call ${toolCallId}`, {
      toolCallId,
    });
  }
  return tokenFor(runtime.keys, checkpoint, request, Date.now() + expiresIn);
}

/**
 * Checks that `tokens` authorise every answer given: each answered call has a valid token of this
 * deployment for this generation and that call, issued for the pause stored now and for the
 * question as it is asked now. Throws `TrustError` (`invalid_answer_token`, `expired_answer_token`,
 * `answer_token_mismatch`: a token for another generation, call or deployment, or none for a call)
 * or `ResumeError` (`not_found`; `already_resumed` for a token whose pause was answered already).
 * The resume that follows checks the answers themselves and claims the pause.
 */
export async function authorizeAnswers(
  runtime: Runtime,
  generationId: string,
  answers: Record<string, unknown>,
  tokens: readonly string[],
): Promise<void> {
  const audience = await runtime.audience();
  const byCall = new Map<string, AnswerTokenClaims>();
  for (const token of tokens) {
    const claims = verifyAnswerToken(runtime.keys, token);
    if (claims.generationId !== generationId || claims.audience !== audience) {
      throw new TrustError(
        'answer_token_mismatch',
        `The answer token is for generation ${claims.generationId}${claims.audience === audience ? '' : ' of another deployment'}, not ${generationId}`,
      );
    }
    byCall.set(claims.toolCallId, claims);
  }
  const unauthorised = Object.keys(answers).filter((callId) => !byCall.has(callId));
  if (unauthorised.length > 0) {
    throw new TrustError(
      'answer_token_mismatch',
      `No answer token given for call ${unauthorised.join(', ')}: a token answers only the call it was issued for`,
    );
  }
  const checkpoint = await verifiedPause(runtime, generationId);
  for (const claims of byCall.values()) {
    if (claims.claimSlot !== checkpoint.claim_slot) {
      throw new ResumeError(
        'already_resumed',
        `The answer token for call ${claims.toolCallId} was issued for a pause of generation ${generationId} that was answered already`,
        { toolCallId: claims.toolCallId },
      );
    }
    const request = checkpoint.input_requests.find((candidate) => candidate.tool_call_id === claims.toolCallId);
    if (request === undefined || request.kind !== claims.kind || answerDigestOf(request) !== claims.answerDigest) {
      throw new TrustError(
        'answer_token_mismatch',
        `The answer token for call ${claims.toolCallId} was issued for another question than the one generation ${generationId} asks now`,
      );
    }
  }
}

function tokenFor(keys: CheckpointKeys, checkpoint: Checkpoint, request: InputRequestJSON, until: number): string {
  // A token never outlives its question: past the deadline the answer would be refused anyway.
  const deadlines = [until, request.expires_at, checkpoint.input_expires_at, checkpoint.expires_at]
    .map((time) => (typeof time === 'string' ? Date.parse(time) : time))
    .filter((time): time is number => typeof time === 'number' && !Number.isNaN(time));
  return signAnswerToken(keys, {
    generationId: checkpoint.generation_id,
    toolCallId: request.tool_call_id as string,
    claimSlot: checkpoint.claim_slot,
    kind: request.kind,
    answerDigest: answerDigestOf(request),
    ...(typeof checkpoint.audience === 'string' && { audience: checkpoint.audience }),
    expiresAt: Math.min(...deadlines),
  });
}

/** The generation's stored pause (or the one rebuilt from its log), once it verifies as this deployment's. */
async function verifiedPause(runtime: Runtime, generationId: string): Promise<Checkpoint> {
  const found = await storedPause(runtime, generationId);
  const stored = found.verified ?? found.stored;
  if (stored === undefined) throw await notStored(runtime.bus, generationId);
  if (stored.checkpoint?.generation_id !== generationId) {
    throw new ResumeError('not_found', `No paused generation ${generationId} is stored`);
  }
  verifyCheckpoint(stored.checkpoint, runtime.keys, { params: stored.params, audience: await runtime.audience() });
  return stored.checkpoint;
}
