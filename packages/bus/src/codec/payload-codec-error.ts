import { InterludeError } from '@interlude/core';
import { PAYLOAD_CODEC_ERROR_MARKER as marker } from '@interlude/core/internal';

/** Why a payload could not be sealed or opened. Stable: callers switch on these. */
export type PayloadCodecErrorCode =
  /**
   * There is no payload key where one is needed: `aesGcmCodec()` was given none and
   * `INTERLUDE_PAYLOAD_KEY` is unset, or a bus without a codec read a sealed payload.
   */
  | 'missing_payload_key'
  /** A key is not 32 bytes written in base64 or hex, or two keys are the same. */
  | 'invalid_payload_key'
  /** A payload was sealed with a key this bus does not hold (its `key_id` names which). */
  | 'unknown_payload_key'
  /** A payload names a key this bus holds but does not open with it: altered, moved, or not a sealed payload at all. */
  | 'undecryptable_payload'
  /**
   * A bus with a codec read a plain value where it seals every value: written by a client that
   * holds no payload key (a sealed value is authenticated, a plain one is not), so it is refused.
   */
  | 'plain_payload';

/** Every code of `PayloadCodecError`. */
export const PAYLOAD_CODEC_ERROR_CODES: ReadonlySet<string> = new Set<PayloadCodecErrorCode>([
  'missing_payload_key',
  'invalid_payload_key',
  'unknown_payload_key',
  'undecryptable_payload',
  'plain_payload',
]);

/**
 * A payload the bus cannot read, or a codec set up so it could not seal one. Reading never
 * skips such a payload in silence: `bus.events()`, checkpoint loads and claim reads reject with
 * it, a live subscription reports it to `onError`, `runtime.pending()` leaves the generation out
 * and warns once, and a job is handed back (another worker may hold the key) until its last
 * delivery dead-letters it, still sealed, with this code.
 */
export class PayloadCodecError extends InterludeError {
  readonly [marker] = true;
  declare readonly code: PayloadCodecErrorCode;

  constructor(code: PayloadCodecErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'PayloadCodecError';
  }

  static override isInstance(error: unknown): error is PayloadCodecError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
