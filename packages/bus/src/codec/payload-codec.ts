/**
 * A value as the bus stores it once sealed: the scheme that sealed it (`sealed`), the key it was
 * sealed with (`key_id`) and the scheme's own fields, all strings. It stays readable JSON, so an
 * operator can tell what sealed a record, and with which key, without opening it.
 */
export interface SealedPayload {
  sealed: string;
  key_id: string;
  [field: string]: string;
}

/**
 * How `natsBus({ codec })` keeps payloads unreadable at rest: `seal` turns the UTF-8 JSON of one
 * value into a `SealedPayload` bound to `context` (where the value lives: an event id, a job id
 * and field, a generation id), so it cannot be opened anywhere else; `open` gives the bytes back
 * or throws `PayloadCodecError`. `aesGcmCodec()` is the ready-made one. Both are synchronous, so
 * a live subscription still delivers events in the order they arrived.
 */
export interface PayloadCodec {
  seal(plaintext: Uint8Array, context: string): SealedPayload;
  open(sealed: SealedPayload, context: string): Uint8Array;
}

/**
 * Whether a stored value is a sealed payload rather than a plain one. Plain values are still
 * read as they are: what was written before the codec was turned on stays readable.
 */
export function isSealedPayload(value: unknown): value is SealedPayload {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  if (typeof record['sealed'] !== 'string' || typeof record['key_id'] !== 'string') return false;
  for (const field in record) if (typeof record[field] !== 'string') return false;
  return true;
}
