import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AES_GCM_SCHEME, aesGcmCodec } from './aes-gcm-codec.js';
import { isSealedPayload } from './payload-codec.js';
import { PayloadCodecError } from './payload-codec-error.js';
import { PAYLOAD_KEY_VARIABLE, payloadKeyIdOf } from './payload-keys.js';

const plaintext = Buffer.from(JSON.stringify({ result: 'refund of $30 issued to order 42' }));
const newKey = () => randomBytes(32).toString('base64');

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (PayloadCodecError.isInstance(error)) return error.code;
    throw error;
  }
  throw new Error('expected a PayloadCodecError');
}

describe('aesGcmCodec', () => {
  it('seals into readable JSON that names its scheme and key and holds none of the plaintext, and opens it again', () => {
    const key = newKey();
    const codec = aesGcmCodec({ keys: [key] });
    const sealed = codec.seal(plaintext, 'interlude/event/gen_1:start:0');
    expect(Object.keys(sealed)).toEqual(['sealed', 'key_id', 'salt', 'iv', 'ciphertext']);
    expect(sealed.sealed).toBe(AES_GCM_SCHEME);
    expect(sealed.key_id).toBe(createHash('sha256').update(Buffer.from(key, 'base64')).digest('hex').slice(0, 8));
    expect(isSealedPayload(JSON.parse(JSON.stringify(sealed)))).toBe(true);
    const stored = JSON.stringify(sealed);
    expect(stored).not.toContain('refund');
    expect(Buffer.from(sealed['ciphertext'] as string, 'base64').toString('latin1')).not.toContain('refund');
    expect(Buffer.from(codec.open(sealed, 'interlude/event/gen_1:start:0'))).toEqual(plaintext);
  });

  it('seals the same bytes differently every time (a fresh IV each), and each codec under its own salt', () => {
    const key = newKey();
    const one = aesGcmCodec({ keys: [key] });
    const other = aesGcmCodec({ keys: [key] });
    const seals = [one.seal(plaintext, 'c'), one.seal(plaintext, 'c'), other.seal(plaintext, 'c')];
    expect(new Set(seals.map((sealed) => sealed['iv'])).size).toBe(3);
    expect(new Set(seals.map((sealed) => sealed['ciphertext'])).size).toBe(3);
    expect(seals[0]?.['salt']).toBe(seals[1]?.['salt']);
    expect(seals[2]?.['salt']).not.toBe(seals[0]?.['salt']);
    // Every codec holding the key opens what any of them sealed.
    for (const sealed of seals) expect(Buffer.from(one.open(sealed, 'c'))).toEqual(plaintext);
    for (const sealed of seals) expect(Buffer.from(other.open(sealed, 'c'))).toEqual(plaintext);
  });

  it('rotates: seals with the first key, opens with any, so payloads of the old key open once a new one is added first', () => {
    const oldKey = newKey();
    const freshKey = randomBytes(32).toString('hex');
    const before = aesGcmCodec({ keys: [oldKey] });
    const rotated = aesGcmCodec({ keys: [freshKey, oldKey] });
    const old = before.seal(plaintext, 'c');
    expect(Buffer.from(rotated.open(old, 'c'))).toEqual(plaintext);
    const fresh = rotated.seal(plaintext, 'c');
    expect(fresh.key_id).toBe(payloadKeyIdOf(Buffer.from(freshKey, 'hex')));
    expect(fresh.key_id).not.toBe(old.key_id);
    // Once the old key is dropped, what it sealed no longer opens, and the error says which key it needs.
    const dropped = aesGcmCodec({ keys: [freshKey] });
    expect(codeOf(() => dropped.open(old, 'c'))).toBe('unknown_payload_key');
    expect(() => dropped.open(old, 'c')).toThrow(old.key_id);
  });

  it('refuses a payload altered, moved to another place, or sealed by another scheme', () => {
    const codec = aesGcmCodec({ keys: [newKey()] });
    const sealed = codec.seal(plaintext, 'interlude/job/job_1/params');
    const bytes = Buffer.from(sealed['ciphertext'] as string, 'base64');
    bytes[0] = (bytes[0] as number) ^ 1;
    const altered = { ...sealed, ciphertext: bytes.toString('base64') };
    expect(codeOf(() => codec.open(altered, 'interlude/job/job_1/params'))).toBe('undecryptable_payload');
    expect(codeOf(() => codec.open(sealed, 'interlude/job/job_2/params'))).toBe('undecryptable_payload');
    expect(
      codeOf(() => codec.open({ ...sealed, salt: randomBytes(16).toString('base64') }, 'interlude/job/job_1/params')),
    ).toBe('undecryptable_payload');
    expect(codeOf(() => codec.open({ ...sealed, ciphertext: '' }, 'interlude/job/job_1/params'))).toBe(
      'undecryptable_payload',
    );
    expect(codeOf(() => codec.open({ ...sealed, sealed: 'rot13' }, 'interlude/job/job_1/params'))).toBe(
      'undecryptable_payload',
    );
  });

  it('takes keys as base64 (standard or URL-safe, padded or not), hex or bytes, and names them alike', () => {
    const bytes = randomBytes(32);
    const forms = [
      bytes.toString('base64'),
      bytes.toString('base64url'),
      bytes.toString('base64').replace(/=+$/, ''),
      bytes.toString('hex'),
      bytes.toString('hex').toUpperCase(),
      ` ${bytes.toString('base64')}\n`,
    ];
    const ids = [...forms.map((form) => aesGcmCodec({ keys: form }).seal(plaintext, 'c').key_id)];
    ids.push(aesGcmCodec({ keys: [new Uint8Array(bytes)] }).seal(plaintext, 'c').key_id);
    expect(new Set(ids)).toEqual(new Set([payloadKeyIdOf(bytes)]));
  });

  it('refuses keys that are not 32 bytes, and two equal keys, before sealing anything, without echoing them', () => {
    const short = randomBytes(16).toString('base64');
    const long = randomBytes(48).toString('hex');
    for (const keys of [[short], ['correct horse battery staple'], [long], [new Uint8Array(31)]]) {
      expect(codeOf(() => aesGcmCodec({ keys }))).toBe('invalid_payload_key');
    }
    expect(() => aesGcmCodec({ keys: [newKey(), short] })).toThrow(/key 2 of aesGcmCodec's keys/);
    expect(() => aesGcmCodec({ keys: [short] })).not.toThrow(short);
    const key = newKey();
    expect(codeOf(() => aesGcmCodec({ keys: [key, Buffer.from(key, 'base64').toString('hex')] }))).toBe(
      'invalid_payload_key',
    );
    expect(codeOf(() => aesGcmCodec({ keys: [] }))).toBe('missing_payload_key');
  });

  it(`reads ${PAYLOAD_KEY_VARIABLE} when given no keys: several separated by commas, the first sealing`, () => {
    const saved = process.env[PAYLOAD_KEY_VARIABLE];
    try {
      const first = newKey();
      const second = newKey();
      process.env[PAYLOAD_KEY_VARIABLE] = `${first}, ${second}`;
      const codec = aesGcmCodec();
      expect(codec.seal(plaintext, 'c').key_id).toBe(payloadKeyIdOf(Buffer.from(first, 'base64')));
      const bySecond = aesGcmCodec({ keys: [second] }).seal(plaintext, 'c');
      expect(Buffer.from(codec.open(bySecond, 'c'))).toEqual(plaintext);

      process.env[PAYLOAD_KEY_VARIABLE] = 'not-a-key';
      expect(() => aesGcmCodec()).toThrow(new RegExp(`key 1 of ${PAYLOAD_KEY_VARIABLE}`));
      delete process.env[PAYLOAD_KEY_VARIABLE];
      expect(codeOf(() => aesGcmCodec())).toBe('missing_payload_key');
    } finally {
      if (saved === undefined) delete process.env[PAYLOAD_KEY_VARIABLE];
      else process.env[PAYLOAD_KEY_VARIABLE] = saved;
    }
  });
});
