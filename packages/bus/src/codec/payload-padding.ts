/**
 * Every plaintext shorter than this seals to one length: the answers, flags and short results
 * that tell one outcome from another (`{"call_1":true}` against `{"call_1":false}`) are small.
 */
export const SMALLEST_PADDED_LENGTH = 256;

/** The marker that ends the plaintext inside its padding (ISO/IEC 7816-4: 0x80, then zeros). */
const END_MARKER = 0x80;

/**
 * The length a plaintext of `length` bytes is padded to: `SMALLEST_PADDED_LENGTH` up to there,
 * then Padmé (Nikitin et al., "Reducing Metadata Leakage from Encrypted Files and Communication
 * with PURBs", PETS 2019): the length rounded up so that only its top bits stay, which costs at
 * most 12% and leaves a reader of sealed lengths O(log log n) bits instead of log n. GCM keeps the
 * plaintext's length, so without this a sealed `true` and a sealed `false` differ by one byte.
 */
export function paddedLength(length: number): number {
  const marked = length + 1;
  if (marked <= SMALLEST_PADDED_LENGTH) return SMALLEST_PADDED_LENGTH;
  const exponent = Math.floor(Math.log2(marked));
  const kept = Math.floor(Math.log2(exponent)) + 1;
  const step = 2 ** (exponent - kept);
  return Math.ceil(marked / step) * step;
}

/** The plaintext, the end marker, then zeros up to `paddedLength`. */
export function padPlaintext(plaintext: Uint8Array): Buffer {
  const padded = Buffer.alloc(paddedLength(plaintext.length));
  padded.set(plaintext);
  padded[plaintext.length] = END_MARKER;
  return padded;
}

/** The plaintext inside its padding, or undefined when the padding is not this scheme's. */
export function unpadPlaintext(padded: Buffer): Buffer | undefined {
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  return end >= 0 && padded[end] === END_MARKER ? padded.subarray(0, end) : undefined;
}
