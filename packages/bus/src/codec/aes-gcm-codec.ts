import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { PayloadCodec } from './payload-codec.js';
import { PayloadCodecError } from './payload-codec-error.js';
import { environmentPayloadKeys, PAYLOAD_KEY_VARIABLE, type PayloadKey, parsePayloadKeys } from './payload-keys.js';
import { padPlaintext, unpadPlaintext } from './payload-padding.js';

/** The scheme name written in every payload this codec seals. */
export const AES_GCM_SCHEME = 'aes-256-gcm';

export interface AesGcmCodecOptions {
  /**
   * 32-byte keys, as bytes or written in base64 or hex (`openssl rand -base64 32`). The first
   * seals; any opens, so a new key is added first and the old one kept while payloads it sealed
   * are still stored. Default: `INTERLUDE_PAYLOAD_KEY` (several separated by commas).
   */
  keys?: string | ReadonlyArray<string | Uint8Array> | undefined;
}

/** Seals per data key before a fresh one is derived, far below GCM's 2^32 bound for random IVs. */
const SEALS_PER_DATA_KEY = 2 ** 30;
/** Data keys of other writers a reader keeps derived. */
const REMEMBERED_DATA_KEYS = 1_024;
const INFO = Buffer.from('interlude/payload/v1');
const TAG_BYTES = 16;

/**
 * AES-256-GCM from `node:crypto`, for `natsBus({ codec })`. Each codec derives its own data key
 * from the payload key and a random 16-byte salt (HKDF-SHA256) and seals with a random 12-byte IV
 * under it, so however many processes seal with one key, IVs never come near repeating. The
 * sealed form names the key (`key_id`), carries `salt`, `iv` and `ciphertext` (the GCM tag is its
 * last 16 bytes), all base64, and is bound to where it is stored (GCM's additional data), so a
 * sealed value moved to another record does not open. The plaintext is padded first
 * (`payload-padding.ts`): every one under 256 bytes seals to the same length, longer ones to
 * a few lengths, so a sealed approval and a sealed refusal look alike.
 *
 * @example
 * const bus = natsBus({ servers, codec: aesGcmCodec({ keys: [process.env.NEW_KEY!, process.env.OLD_KEY!] }) });
 */
export function aesGcmCodec(options: AesGcmCodecOptions = {}): PayloadCodec {
  return aesGcmCodecOf(keysOf(options));
}

/** The codec over keys already checked (`parsePayloadKeys`): seals with the first, opens with any. */
export function aesGcmCodecOf(keys: readonly PayloadKey[]): PayloadCodec {
  const sealing = keys[0] as PayloadKey;
  const byId = new Map(keys.map((key) => [key.id, key.key]));
  const derived = new Map<string, Buffer>();
  const dataKey = (keyId: string, key: Buffer, salt: string): Buffer => {
    const name = `${keyId}.${salt}`;
    let found = derived.get(name);
    if (found === undefined) {
      found = Buffer.from(hkdfSync('sha256', key, saltBytes(salt), INFO, 32));
      if (derived.size >= REMEMBERED_DATA_KEYS) derived.delete(derived.keys().next().value as string);
      derived.set(name, found);
    }
    return found;
  };
  let salt = randomBytes(16).toString('base64');
  let sealingKey = dataKey(sealing.id, sealing.key, salt);
  let seals = 0;

  return {
    seal(plaintext, context) {
      if (seals >= SEALS_PER_DATA_KEY) {
        salt = randomBytes(16).toString('base64');
        sealingKey = dataKey(sealing.id, sealing.key, salt);
        seals = 0;
      }
      seals += 1;
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', sealingKey, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(padPlaintext(plaintext)), cipher.final(), cipher.getAuthTag()]);
      return {
        sealed: AES_GCM_SCHEME,
        key_id: sealing.id,
        salt,
        iv: iv.toString('base64'),
        ciphertext: ciphertext.toString('base64'),
      };
    },

    open(sealed, context) {
      if (sealed.sealed !== AES_GCM_SCHEME) {
        throw new PayloadCodecError(
          'undecryptable_payload',
          `The payload of ${context} is sealed with ${JSON.stringify(sealed.sealed)}, not ${AES_GCM_SCHEME}`,
        );
      }
      const key = byId.get(sealed.key_id);
      if (key === undefined) {
        throw new PayloadCodecError(
          'unknown_payload_key',
          `The payload of ${context} is sealed with payload key ${sealed.key_id}, which this bus does not hold (it holds ${[...byId.keys()].join(', ')}): add that key to ${PAYLOAD_KEY_VARIABLE} or aesGcmCodec's keys, after the one that seals`,
        );
      }
      let padded: Buffer;
      try {
        const bytes = Buffer.from(sealed['ciphertext'] ?? '', 'base64');
        const iv = Buffer.from(sealed['iv'] ?? '', 'base64');
        const decipher = createDecipheriv('aes-256-gcm', dataKey(sealed.key_id, key, sealed['salt'] ?? ''), iv, {
          authTagLength: TAG_BYTES,
        });
        decipher.setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
        padded = Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)), decipher.final()]);
      } catch (error) {
        throw new PayloadCodecError(
          'undecryptable_payload',
          `The payload of ${context} does not open with payload key ${sealed.key_id}: altered, moved from another record, or sealed with another key of the same id`,
          { cause: error },
        );
      }
      const plaintext = unpadPlaintext(padded);
      if (plaintext === undefined) {
        throw new PayloadCodecError(
          'undecryptable_payload',
          `The payload of ${context} opened without its padding: sealed by a writer of another format`,
        );
      }
      return plaintext;
    },
  };
}

function keysOf(options: AesGcmCodecOptions): PayloadKey[] {
  if (options.keys !== undefined) {
    const given = typeof options.keys === 'string' ? [options.keys] : options.keys;
    if (given.length === 0) throw new PayloadCodecError('missing_payload_key', 'aesGcmCodec was given no keys');
    return parsePayloadKeys(given, "aesGcmCodec's keys");
  }
  const fromEnvironment = environmentPayloadKeys(process.env);
  if (fromEnvironment === undefined) {
    throw new PayloadCodecError(
      'missing_payload_key',
      `aesGcmCodec needs a key: pass keys, or set ${PAYLOAD_KEY_VARIABLE} (32 bytes in base64 or hex; openssl rand -base64 32)`,
    );
  }
  return fromEnvironment;
}

function saltBytes(written: string): Buffer {
  const salt = Buffer.from(written, 'base64');
  if (salt.length !== 16) throw new Error('the salt is not 16 bytes');
  return salt;
}
