import { inputTimerSchema } from '../contract/record-schemas.js';
import { TrustError } from '../errors/trust-error.js';
import { canonicalJson } from '../trust/canonical-json.js';
import type { CheckpointKeys } from '../trust/checkpoint-keys.js';
import type { InputTimer } from './bus.js';

/**
 * A timer as a bus stores it: with keys, `key_id` and `signature` (HMAC-SHA256 in base64url over
 * the RFC 8785 canonical JSON of every other field, under the label `interlude/timer/v1`), so the
 * generation, slot and due time it names are the ones a key holder set. Without keys (signing
 * off, or a bus no runtime handed keys) it is stored as it is.
 */
export function signTimer(timer: InputTimer, keys: CheckpointKeys | undefined): InputTimer {
  const { key_id: _keyId, signature: _signature, ...content } = timer;
  if (keys === undefined) return content;
  const unsigned = { ...content, key_id: keys.signingKeyId };
  return { ...unsigned, signature: keys.sign('timer', canonicalJson(unsigned)) };
}

/**
 * Why a timer read off a bus is not to be met, or undefined when it is: not a timer at all
 * (`malformed_timer`: no generation, a slot that is not a whole number, no due time; checked with
 * keys or without), unsigned (`unsigned_timer`) or signed with a key not held or not matching
 * (`forged_timer`). A bus drops such a timer instead of handing it to the deadline's handler.
 */
export function timerRefusal(timer: unknown, keys: CheckpointKeys | undefined): TrustError | undefined {
  const record = (typeof timer === 'object' && timer !== null ? timer : {}) as Partial<InputTimer>;
  const what = `the timer of ${JSON.stringify(String(record.generation_id).slice(0, 64))}`;
  // The wire contract's timer: a version 1 record naming a generation, a whole-number slot and an ISO due time.
  if (!inputTimerSchema.safeParse(timer).success) {
    return new TrustError('malformed_timer', `Dropped ${what}: it names no generation, whole-number slot or due time`);
  }
  if (keys === undefined) return undefined;
  const { signature, ...unsigned } = record;
  if (typeof signature !== 'string' || typeof record.key_id !== 'string') {
    return new TrustError('unsigned_timer', `Dropped ${what}: it is unsigned, and only signed timers are met`);
  }
  let content: string | undefined;
  try {
    content = canonicalJson(unsigned);
  } catch {
    content = undefined;
  }
  if (content !== undefined && keys.verify('timer', content, record.key_id, signature)) return undefined;
  return new TrustError(
    'forged_timer',
    keys.keyIds.includes(record.key_id)
      ? `Dropped ${what}: its signature does not match, forged or altered`
      : `Dropped ${what}: it is signed with a key this runtime does not hold`,
  );
}

/**
 * The id a bus stores a timer under, so one pause scheduled again is kept once: its generation
 * and slot, and with a signature the signature's start. JetStream keeps the first message of an
 * id, so an id anyone could write first (`<generation>:<slot>`) would let a client without the key
 * publish first and have the real timer dropped; a signed timer's id only a key holder can write.
 */
export function timerMessageId(timer: InputTimer): string {
  const base = `${timer.generation_id}:${timer.claim_slot}`;
  return timer.signature === undefined ? base : `${base}:${timer.signature.slice(0, 16)}`;
}
