import { InterludeError } from './interlude-error.js';

const marker = Symbol.for('interlude.error.trust');

/** Every reason Interlude refuses something it cannot trust. Stable: callers switch on these. */
export type TrustErrorCode =
  /** A runtime whose bus crosses processes was started without a checkpoint key. */
  | 'missing_checkpoint_key'
  /** A job carries no signature. */
  | 'unsigned_job'
  /** A job's signature does not match, or names a key this runtime does not hold. */
  | 'forged_job'
  /** A resume job without the checkpoint it resumes (the stored one is not trusted in its place). */
  | 'job_without_checkpoint'
  /** An event carries no signature. */
  | 'unsigned_event'
  /** An event's signature does not match, or names a key this runtime does not hold. */
  | 'forged_event'
  /** A claim-log record carries no signature (read as a forgery: skipped, never a claim). */
  | 'unsigned_claim'
  /** A claim-log record's signature does not match, or names a key this runtime does not hold. */
  | 'forged_claim'
  /** A deadline timer carries no signature (a keyless client's: dropped, never met). */
  | 'unsigned_timer'
  /** A deadline timer's signature does not match, or names a key this runtime does not hold. */
  | 'forged_timer'
  /** A deadline timer that is not one: no generation, no whole-number slot, no due time. */
  | 'malformed_timer'
  /**
   * A record read from one place whose body names another: an event whose generation, agent,
   * action or name is not its subject's (a signed event of one generation republished on
   * another's), or a claim record whose generation or slot is not the slot's it was read from.
   */
  | 'misplaced_record'
  /** An answer token that is not one: malformed, altered, or signed with a key this runtime does not hold. */
  | 'invalid_answer_token'
  /** An answer token past the time it was issued until. */
  | 'expired_answer_token'
  /** An answer token for another question: another generation, call or deployment than what it is used on. */
  | 'answer_token_mismatch';

/**
 * Something signed (a job, an event) failed its check, or a runtime was set up so that nothing
 * could be checked. Whatever it refuses is refused before anything runs: no tool, no model call,
 * no write.
 */
export class TrustError extends InterludeError {
  readonly [marker] = true;
  declare readonly code: TrustErrorCode;

  constructor(code: TrustErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'TrustError';
  }

  static override isInstance(error: unknown): error is TrustError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
