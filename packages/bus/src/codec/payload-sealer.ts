import { aesGcmCodecOf } from './aes-gcm-codec.js';
import { isSealedPayload, type PayloadCodec } from './payload-codec.js';
import { PayloadCodecError } from './payload-codec-error.js';
import { environmentPayloadKeys, PAYLOAD_KEY_VARIABLE } from './payload-keys.js';

const decoder = new TextDecoder();

/**
 * What the bus does to the sensitive values of what it stores: seals them with its codec, or,
 * without one, leaves them as they are. With a codec, opening refuses a plain value
 * (`plain_payload`): every value this bus writes is sealed, and only a sealed one is authenticated
 * (GCM, bound to its record and field), so a plain one is what a client without the key wrote.
 * Without one, it refuses a sealed value (it cannot open it), never passing it on as data.
 */
export interface PayloadSealer {
  /** Whether this bus seals what it writes. */
  readonly sealing: boolean;
  /** A JSON value as stored: sealed for `context`, or unchanged without a codec or when already sealed. */
  seal(value: unknown, context: string): unknown;
  /** A stored value as written: opened when sealed; `PayloadCodecError` when it cannot be, or when a codec finds it plain. */
  open(value: unknown, context: string): unknown;
}

/**
 * The sealer of a bus from its `codec` option: the codec given; none for `false`; by default
 * `aesGcmCodec()` when `INTERLUDE_PAYLOAD_KEY` is set (so every process of a deployment, workers
 * included, seals alike from its environment), none otherwise.
 */
export function createPayloadSealer(
  option: PayloadCodec | false | undefined,
  environment: NodeJS.ProcessEnv = process.env,
): PayloadSealer {
  const codec = codecOf(option, environment);
  return {
    sealing: codec !== undefined,
    seal(value, context) {
      if (codec === undefined || value === undefined || isSealedPayload(value)) return value;
      return codec.seal(Buffer.from(JSON.stringify(value), 'utf8'), context);
    },
    open(value, context) {
      if (!isSealedPayload(value)) {
        if (codec === undefined || value === undefined) return value;
        throw new PayloadCodecError(
          'plain_payload',
          `The payload of ${context} is not sealed, and this bus seals every one: written by a client without the payload key`,
        );
      }
      if (codec === undefined) {
        throw new PayloadCodecError(
          'missing_payload_key',
          `The payload of ${context} is sealed (payload key ${value.key_id}) and this bus has no codec: give natsBus the codec, or set ${PAYLOAD_KEY_VARIABLE}`,
        );
      }
      const bytes = codec.open(value, context);
      try {
        return JSON.parse(decoder.decode(bytes));
      } catch (error) {
        throw new PayloadCodecError('undecryptable_payload', `The payload of ${context} opened to no JSON`, {
          cause: error,
        });
      }
    },
  };
}

function codecOf(option: PayloadCodec | false | undefined, environment: NodeJS.ProcessEnv): PayloadCodec | undefined {
  if (option === false) return undefined;
  if (option !== undefined) return option;
  const keys = environmentPayloadKeys(environment);
  return keys === undefined ? undefined : aesGcmCodecOf(keys);
}
