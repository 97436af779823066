import { type GenerationEvent, TrustError } from '@interlude/core';
import type { CheckpointKeys } from '@interlude/core/internal';
import { headers as createHeaders, type MsgHdrs } from '@nats-io/transport-node';
import { MSG_ID_HEADER } from './jetstream-requests.js';
import type { NatsNames } from './subjects.js';

/** The header an event's signature travels in: `<key_id>.<base64url>`, HMAC-SHA256 of the exact payload bytes. */
export const SIGNATURE_HEADER = 'Interlude-Signature';

/**
 * The headers of one stored event: its message id and, when the bus has keys, its signature.
 * The payload stays the plain event JSON (any subscriber reads subjects, event types and data as
 * before); the signature lets Interlude's readers drop what a key holder did not publish.
 *
 * With keys, the message id is the event id followed by a keyed digest of it: JetStream keeps the
 * first message of an id, so an id anyone could write first would let a forger suppress the real
 * event; this one only a key holder can write, and it is the same for every retry and replay.
 */
export function eventHeaders(event: GenerationEvent, data: Uint8Array, keys: CheckpointKeys | undefined): MsgHdrs {
  const headers = createHeaders();
  if (keys === undefined) {
    headers.set(MSG_ID_HEADER, event.id);
    return headers;
  }
  headers.set(MSG_ID_HEADER, `${event.id}:${keys.sign('message-id', event.id).slice(0, 16)}`);
  headers.set(SIGNATURE_HEADER, keys.signTagged('event', data));
  return headers;
}

/**
 * Whether an event read off the bus may be trusted: always when the bus has no keys (signing is
 * off, or no runtime handed it any); otherwise its signature must match its bytes under a key
 * held. Returns the reason to drop it, or undefined to keep it.
 */
export function eventRefusal(
  data: Uint8Array,
  headers: MsgHdrs | undefined,
  keys: CheckpointKeys | undefined,
  subject: string,
): TrustError | undefined {
  if (keys === undefined) return undefined;
  const signature = headers?.get(SIGNATURE_HEADER) ?? '';
  if (signature === '') {
    return new TrustError('unsigned_event', `Dropped an unsigned event on ${subject}: only signed events are trusted`);
  }
  const verdict = keys.verifyTagged('event', data, signature);
  if (verdict === 'valid') return undefined;
  return new TrustError(
    'forged_event',
    verdict === 'unknown_key'
      ? `Dropped an event on ${subject} signed with a key this runtime does not hold`
      : `Dropped an event on ${subject} whose signature does not match: forged or altered`,
  );
}

/**
 * Why an event read off `subject` is not that subject's, or undefined when it is. A signature
 * covers the payload bytes and nothing of where they were published, so a signed event of one
 * generation copied byte for byte onto another's subject still verifies: what binds it to its
 * generation is that its body names the subject it was read from (its id too: `<generation>:…`).
 * Checked with keys or without, since it needs none.
 */
export function misplacedEvent(event: GenerationEvent, subject: string, names: NatsNames): TrustError | undefined {
  let expected: string | undefined;
  try {
    expected = names.eventSubject(event);
  } catch {
    expected = undefined;
  }
  const idMatches = typeof event.id === 'string' && event.id.startsWith(`${String(event.generation_id)}:`);
  if (expected === subject && idMatches) return undefined;
  return new TrustError(
    'misplaced_record',
    `Dropped an event read on ${subject} whose body names ${JSON.stringify(String(event.generation_id).slice(0, 64))} (${JSON.stringify(String(event.event).slice(0, 32))}): it belongs to another subject`,
  );
}
