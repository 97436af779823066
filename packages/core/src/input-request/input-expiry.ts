import type { JsonValue } from './input-request-json.js';

/**
 * When a question stops waiting and what it is answered with then. `expiresIn` (milliseconds
 * from the moment it is asked) or `expiresAt` (a `Date` or an ISO time), not both; `onExpiry` is
 * `'decline'` (the default: the call does not run, and the model reads `{"error":"no answer in
 * time"}`, not the `{"error":"declined by user"}` of a person's `false`) or
 * `{ answer }`, the answer it gets instead.
 */
export interface InputExpiryOptions {
  expiresIn?: number;
  expiresAt?: Date | string;
  onExpiry?: 'decline' | { answer: JsonValue };
}

/** The wire form of an expiry, as it rides on a request: an ISO deadline and, when not a decline, the answer. */
export interface InputExpiryJSON {
  expires_at?: string;
  on_expiry?: { answer: JsonValue };
}

/**
 * Turns the options into their wire form, or throws `TypeError` naming what is wrong: both
 * deadlines given, a duration that is not a positive number, a time that does not parse, an
 * `onExpiry` without a deadline, or a fixed answer for a secret (it would be stored in plain).
 */
export function inputExpiryJSON(
  options: InputExpiryOptions | undefined,
  kind: string,
  now: number = Date.now(),
): InputExpiryJSON {
  if (options === undefined) return {};
  const { expiresIn, expiresAt, onExpiry } = options;
  if (expiresIn !== undefined && expiresAt !== undefined) {
    throw new TypeError('An input request takes expiresIn or expiresAt, not both');
  }
  let deadline: number | undefined;
  if (expiresIn !== undefined) {
    if (typeof expiresIn !== 'number' || !Number.isFinite(expiresIn) || expiresIn <= 0) {
      throw new TypeError(`expiresIn must be a positive number of milliseconds, got ${String(expiresIn)}`);
    }
    deadline = now + expiresIn;
  } else if (expiresAt !== undefined) {
    deadline =
      expiresAt instanceof Date
        ? expiresAt.getTime()
        : typeof expiresAt === 'string'
          ? Date.parse(expiresAt)
          : Number.NaN;
    if (Number.isNaN(deadline))
      throw new TypeError(`expiresAt must be a Date or an ISO time, got ${String(expiresAt)}`);
  }
  if (onExpiry === undefined || onExpiry === 'decline') {
    return deadline === undefined ? {} : { expires_at: new Date(deadline).toISOString() };
  }
  if (deadline === undefined) throw new TypeError('onExpiry needs expiresIn or expiresAt');
  if (typeof onExpiry !== 'object' || onExpiry === null || !('answer' in onExpiry)) {
    throw new TypeError("onExpiry must be 'decline' or { answer }");
  }
  if (kind === 'secret') throw new TypeError('A secret question cannot expire with a fixed answer: it would be stored');
  return { expires_at: new Date(deadline).toISOString(), on_expiry: { answer: onExpiry.answer } };
}
