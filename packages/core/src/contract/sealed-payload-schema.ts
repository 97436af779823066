import { z } from 'zod';

/**
 * A value sealed by the bus's codec (`natsBus({ codec })`, `INTERLUDE_PAYLOAD_KEY`): the scheme,
 * the key id and the scheme's own fields, all strings (`aesGcmCodec()` adds `salt`, `iv` and
 * `ciphertext`), bound to where the value lives so it opens nowhere else.
 */
export const sealedPayloadSchema = z
  .object({ sealed: z.string(), key_id: z.string() })
  .catchall(z.string())
  .meta({ id: 'SealedPayload' });

/** A field a codec seals: its plain value, or, on a bus with a codec, that value sealed. */
export function sealable<Schema extends z.ZodType>(schema: Schema) {
  return z.union([schema, sealedPayloadSchema]);
}
