import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { aesGcmCodec } from './aes-gcm-codec.js';
import { paddedLength, padPlaintext, SMALLEST_PADDED_LENGTH, unpadPlaintext } from './payload-padding.js';

const codec = aesGcmCodec({ keys: [randomBytes(32).toString('base64')] });
const sealedLength = (value: unknown) =>
  Buffer.from(codec.seal(Buffer.from(JSON.stringify(value)), 'c')['ciphertext'] as string, 'base64').length;

describe('payload padding', () => {
  it('seals an approval and a refusal to the same length, so the job stream does not tell them apart', () => {
    expect(sealedLength({ call_refund: true })).toBe(sealedLength({ call_refund: false }));
    expect(sealedLength({ call_1: true, note: 'ok' })).toBe(sealedLength({ call_1: false, note: 'no' }));
    const longer = { result: 'x'.repeat(900) };
    expect(sealedLength({ ...longer, approved: true })).toBe(sealedLength({ ...longer, approved: false }));
  });

  it('opens every length it sealed to the same bytes, across the floor and the steps above it', () => {
    const edges = [0, 1, 254, 255, 256, 257, 511, 512, 513, 1_023, 1_024, 1_025, 70_000];
    for (const length of [
      ...edges,
      ...edges.map((edge) => paddedLength(edge)),
      ...edges.map((e) => paddedLength(e) - 1),
    ]) {
      const plaintext = randomBytes(length);
      // A plaintext ending in the marker's or the padding's bytes still opens whole.
      if (length > 1) plaintext[length - 1] = length % 2 === 0 ? 0x80 : 0;
      const sealed = codec.seal(plaintext, 'c');
      expect(Buffer.from(codec.open(sealed, 'c')).equals(plaintext), `length ${length}`).toBe(true);
    }
  });

  it('pads below the floor to one length and above it by at most 12%, to far fewer lengths than there are', () => {
    for (let length = 0; length < SMALLEST_PADDED_LENGTH; length += 1) expect(paddedLength(length)).toBe(256);
    const lengths = new Set<number>();
    const outOfBounds: number[] = [];
    for (let length = SMALLEST_PADDED_LENGTH; length < 1_000_000; length += 7) {
      const padded = paddedLength(length);
      if (padded <= length || padded / length > 1.12) outOfBounds.push(length);
      lengths.add(padded);
    }
    expect(outOfBounds).toEqual([]);
    expect(lengths.size).toBeLessThan(1_000);
  });

  it('refuses bytes whose padding is not its own', () => {
    expect(unpadPlaintext(padPlaintext(Buffer.from('abc')))).toEqual(Buffer.from('abc'));
    expect(unpadPlaintext(Buffer.alloc(256))).toBeUndefined();
    expect(unpadPlaintext(Buffer.from('abc'))).toBeUndefined();
  });
});
