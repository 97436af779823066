import type { Checkpoint } from '../checkpoint/checkpoint.js';
import { ResumeError } from '../errors/resume-error.js';
import type { InputRequestJSON } from './input-request.js';

/**
 * When a pause stops waiting: the earliest `expires_at` of its questions, or undefined when none
 * expires. A pause expires as a whole, because a generation resumes with every answer at once.
 */
export function earliestDeadline(requests: readonly InputRequestJSON[]): string | undefined {
  let earliest: string | undefined;
  for (const request of requests) {
    if (request.expires_at === undefined) continue;
    if (earliest === undefined || Date.parse(request.expires_at) < Date.parse(earliest)) earliest = request.expires_at;
  }
  return earliest;
}

/** Whether the pause's deadline has passed at `now`. */
export function hasExpired(checkpoint: Checkpoint, now: number = Date.now()): boolean {
  const deadline = checkpoint.input_expires_at;
  return deadline !== undefined && Date.parse(deadline) <= now;
}

/** A person's answer came too late: refused before anything runs. */
export function refuseExpired(checkpoint: Checkpoint): ResumeError {
  return new ResumeError(
    'expired',
    `Generation ${checkpoint.generation_id} stopped waiting for an answer at ${checkpoint.input_expires_at}`,
  );
}

/**
 * The answers an expired pause resumes with: each question's `on_expiry` answer, or `false` for
 * one without (including questions that set no deadline of their own). Such a `false` is not a
 * person's decline: the call does not run and the model reads `{"error":"no answer in time"}`
 * (`unansweredAtDeadline` names those calls).
 */
export function expiryAnswers(checkpoint: Checkpoint): Record<string, unknown> {
  const answers: Record<string, unknown> = {};
  for (const request of checkpoint.input_requests) {
    answers[request.tool_call_id as string] = request.on_expiry === undefined ? false : request.on_expiry.answer;
  }
  return answers;
}

/** The calls of an expired pause that got no answer: their questions set no `on_expiry` answer. */
export function unansweredAtDeadline(requests: readonly InputRequestJSON[]): Set<string> {
  return new Set(
    requests.filter((request) => request.on_expiry === undefined).map((request) => request.tool_call_id as string),
  );
}
