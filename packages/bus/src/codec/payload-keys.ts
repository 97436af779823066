import { createHash } from 'node:crypto';
import { PayloadCodecError } from './payload-codec-error.js';

/** The environment variable payload keys are read from when none are given. */
export const PAYLOAD_KEY_VARIABLE = 'INTERLUDE_PAYLOAD_KEY';

/** The size of an AES-256 key. */
const KEY_BYTES = 32;

/** One payload key, with the id sealed payloads name it by. */
export interface PayloadKey {
  id: string;
  key: Buffer;
}

/**
 * A key's id: the first 8 hex digits of the SHA-256 of its 32 bytes
 * (`printf %s "$KEY" | base64 -d | sha256sum | cut -c1-8`). It names the key in every sealed
 * payload, so a reader knows which to open it with, and says nothing usable about the key.
 */
export function payloadKeyIdOf(key: Uint8Array): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/**
 * Keys from `INTERLUDE_PAYLOAD_KEY` (one, or several separated by commas or whitespace), checked;
 * undefined when it is unset or empty.
 */
export function environmentPayloadKeys(environment: NodeJS.ProcessEnv): PayloadKey[] | undefined {
  const written = (environment[PAYLOAD_KEY_VARIABLE] ?? '').split(/[\s,]+/).filter((key) => key.length > 0);
  return written.length === 0 ? undefined : parsePayloadKeys(written, PAYLOAD_KEY_VARIABLE);
}

/**
 * Checks and decodes keys: each 32 bytes, as bytes or written in hex (64 digits) or base64
 * (standard or URL-safe, padded or not). Throws `invalid_payload_key` naming the key by its
 * position in `source`, never by its value, and for two keys with the same id.
 */
export function parsePayloadKeys(values: ReadonlyArray<string | Uint8Array>, source: string): PayloadKey[] {
  const keys: PayloadKey[] = [];
  values.forEach((value, position) => {
    const key = decodeKey(value);
    if (key === undefined) {
      throw new PayloadCodecError(
        'invalid_payload_key',
        `Payload key ${position + 1} of ${source} is not 32 bytes written in base64 or hex (make one with: openssl rand -base64 32)`,
      );
    }
    const id = payloadKeyIdOf(key);
    if (keys.some((held) => held.id === id)) {
      throw new PayloadCodecError('invalid_payload_key', `Two payload keys of ${source} are the same (id ${id})`);
    }
    keys.push({ id, key });
  });
  return keys;
}

function decodeKey(value: string | Uint8Array): Buffer | undefined {
  if (typeof value !== 'string') {
    return value instanceof Uint8Array && value.length === KEY_BYTES ? Buffer.from(value) : undefined;
  }
  const written = value.trim();
  if (/^[0-9a-fA-F]{64}$/.test(written)) return Buffer.from(written, 'hex');
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(written)) return undefined;
  const key = Buffer.from(written, 'base64');
  return key.length === KEY_BYTES ? key : undefined;
}
