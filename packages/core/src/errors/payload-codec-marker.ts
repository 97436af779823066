/**
 * What marks `@interlude/bus`'s `PayloadCodecError` (a payload sealed with a key this process does
 * not hold, or altered): core imports no bus, yet reads of the pending view tell it apart.
 */
export const PAYLOAD_CODEC_ERROR_MARKER = Symbol.for('interlude.error.payload-codec');

/** Whether `error` is a `PayloadCodecError` of any copy of `@interlude/bus`. */
export function isPayloadCodecError(error: unknown): error is Error & { code: string } {
  return typeof error === 'object' && error !== null && PAYLOAD_CODEC_ERROR_MARKER in error;
}
