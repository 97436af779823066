import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * What a signature is for. Each kind is signed under its own label, so a signature made for one
 * kind of message (an event) can never pass for another (a job or a checkpoint).
 */
export type SignaturePurpose = 'checkpoint' | 'job' | 'event' | 'claim' | 'timer' | 'message-id' | 'answer-token';

/**
 * The keys a runtime signs and verifies with: it signs with the first and accepts any, so a key
 * can be rotated in (add the new one first, keep the old one while what it signed is still
 * around) and then out. Each key is named by a `key_id`, the first 8 hex digits of its SHA-256
 * (`printf %s "$KEY" | sha256sum | cut -c1-8`), written beside every signature so the verifier
 * knows which key to check; the id says nothing usable about the key itself.
 */
export interface CheckpointKeys {
  /** The id of the key that signs (the first one given). */
  readonly signingKeyId: string;
  /** Every key id this runtime accepts, the signing one first. */
  readonly keyIds: readonly string[];
  /**
   * HMAC-SHA256 of `data` for `purpose` in base64url (43 characters), under the signing key or,
   * when given, the held key `keyId` (a claim record is signed with its checkpoint's key).
   */
  sign(purpose: SignaturePurpose, data: string | Uint8Array, keyId?: string): string;
  /** Whether `signature` (base64url) is the HMAC of `data` for `purpose` under key `keyId`; false for a key it does not hold. */
  verify(purpose: SignaturePurpose, data: string | Uint8Array, keyId: string, signature: string): boolean;
  /** `<key_id>.<base64url>`: a signature that names its key, for what must be one string (a header, a token). */
  signTagged(purpose: SignaturePurpose, data: string | Uint8Array): string;
  /** Checks a `<key_id>.<base64url>` signature: `valid`, `unknown_key` (signed with a key not held) or `invalid`. */
  verifyTagged(purpose: SignaturePurpose, data: string | Uint8Array, tagged: string): TaggedVerdict;
}

export type TaggedVerdict = 'valid' | 'unknown_key' | 'invalid';

/** The smallest key accepted: shorter secrets are too easy to guess from a signature. */
export const MIN_KEY_LENGTH = 16;

/** A key's id: the first 8 hex digits of its SHA-256. */
export function keyIdOf(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/**
 * Keys from one key or several (sign with the first, verify with any). Throws a `TypeError` for
 * an empty list, a key shorter than 16 characters or two keys with the same id.
 */
export function createCheckpointKeys(value: string | readonly string[]): CheckpointKeys {
  const cacheKey = typeof value === 'string' ? value : JSON.stringify(value);
  const made = keysBySecrets.get(cacheKey);
  if (made !== undefined) return made;
  const keys = makeCheckpointKeys(typeof value === 'string' ? [value] : [...value]);
  // A process builds a runtime per request or per job with the same key: its ids and buffers are
  // derived once. Bounded, for a process that is handed many keys.
  if (keysBySecrets.size >= KEYS_CACHED) keysBySecrets.delete(keysBySecrets.keys().next().value as string);
  keysBySecrets.set(cacheKey, keys);
  return keys;
}

/** Keys made from the same secrets, by those secrets (a string, or the JSON of a list). */
const keysBySecrets = new Map<string, CheckpointKeys>();
const KEYS_CACHED = 16;

function makeCheckpointKeys(secrets: string[]): CheckpointKeys {
  if (secrets.length === 0) throw new TypeError('checkpointKey needs at least one key');
  const byId = new Map<string, Buffer>();
  for (const secret of secrets) {
    if (typeof secret !== 'string' || secret.length < MIN_KEY_LENGTH) {
      throw new TypeError(`Every checkpoint key must be a string of at least ${MIN_KEY_LENGTH} characters`);
    }
    const id = keyIdOf(secret);
    if (byId.has(id)) throw new TypeError(`Two checkpoint keys have the same id ${id} (the same key given twice?)`);
    byId.set(id, Buffer.from(secret, 'utf8'));
  }
  const keyIds = [...byId.keys()];
  const signingKeyId = keyIds[0] as string;
  const mac = (key: Buffer, purpose: SignaturePurpose, data: string | Uint8Array) =>
    createHmac('sha256', key).update(SIGNATURE_LABELS[purpose]).update(data).digest();

  const keys: CheckpointKeys = {
    signingKeyId,
    keyIds,
    sign(purpose, data, keyId = signingKeyId) {
      const key = byId.get(keyId);
      if (key === undefined) throw new TypeError(`No checkpoint key ${keyId} is held to sign with`);
      return mac(key, purpose, data).toString('base64url');
    },
    verify(purpose, data, keyId, signature) {
      const key = byId.get(keyId);
      return key !== undefined && sameMac(signature, mac(key, purpose, data));
    },
    signTagged: (purpose, data) => `${signingKeyId}.${keys.sign(purpose, data)}`,
    verifyTagged(purpose, data, tagged) {
      const dot = tagged.indexOf('.');
      const keyId = dot < 0 ? '' : tagged.slice(0, dot);
      if (!byId.has(keyId)) return dot < 0 ? 'invalid' : 'unknown_key';
      return keys.verify(purpose, data, keyId, tagged.slice(dot + 1)) ? 'valid' : 'invalid';
    },
  };
  // Shared by every runtime built with the same secrets: none may change it for the others.
  return Object.freeze(keys);
}

/**
 * The label each purpose's HMAC covers first, before the signed bytes: part of the wire contract,
 * so a client in another language signs and checks alike.
 */
export const SIGNATURE_LABELS: Readonly<Record<SignaturePurpose, string>> = {
  checkpoint: 'interlude/checkpoint/v2\n',
  job: 'interlude/job/v1\n',
  event: 'interlude/event/v1\n',
  claim: 'interlude/claim/v1\n',
  timer: 'interlude/timer/v1\n',
  'message-id': 'interlude/message-id/v1\n',
  'answer-token': 'interlude/answer-token/v1\n',
};

/** Compares a written base64url signature with the expected bytes in constant time. */
function sameMac(written: unknown, expected: Buffer): boolean {
  // Buffer.from(…, 'base64url') skips what is not base64url, so check the written form first: 43
  // characters, the last one of the few that end 32 bytes exactly (one written form per MAC).
  if (typeof written !== 'string' || !/^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/.test(written)) return false;
  return timingSafeEqual(Buffer.from(written, 'base64url'), expected);
}

/** Keys from `INTERLUDE_CHECKPOINT_KEY`: one key, or several separated by commas or whitespace. */
export function keysFromEnvironment(value: string | undefined): string[] | undefined {
  const keys = (value ?? '').split(/[\s,]+/).filter((key) => key.length > 0);
  return keys.length === 0 ? undefined : keys;
}

const busKeys = new WeakMap<object, CheckpointKeys>();

/**
 * A random key made once per bus: what a runtime without a configured key signs with when its
 * bus never leaves the process. What it signs resumes only on that bus, where its claims are
 * kept: a second runtime of the process on a bus of its own refuses it (`bad_signature`), so two
 * claim logs never both let one checkpoint through.
 */
export function busCheckpointKeys(bus: object): CheckpointKeys {
  let keys = busKeys.get(bus);
  if (keys === undefined) {
    keys = createCheckpointKeys(randomBytes(32).toString('hex'));
    busKeys.set(bus, keys);
  }
  return keys;
}
