import { TrustError } from '../errors/trust-error.js';
import {
  busCheckpointKeys,
  type CheckpointKeys,
  createCheckpointKeys,
  keysFromEnvironment,
} from './checkpoint-keys.js';

/** The environment variable a runtime reads its keys from when none is given. */
export const CHECKPOINT_KEY_VARIABLE = 'INTERLUDE_CHECKPOINT_KEY';

let warnedUnsigned = false;
/** The keys of the variable's last value read (`createCheckpointKeys` shares them per secret anyway). */
let fromVariable: { value: string | undefined; keys: CheckpointKeys | undefined } = {
  value: undefined,
  keys: undefined,
};

/**
 * The keys a runtime signs with, from (in this order) its `checkpointKey` option,
 * `INTERLUDE_CHECKPOINT_KEY`, or, when its bus never leaves the process, a random key made once
 * per bus (runtimes sharing that bus share it; one on a bus of its own does not). A runtime whose bus is shared across processes has no safe default: it refuses to
 * start (`missing_checkpoint_key`) unless signing is turned off with `checkpointKey: false`, which
 * it then says on stderr, once per process. Returns undefined when signing is off.
 */
export function runtimeKeys(
  option: string | readonly string[] | false | undefined,
  bus: { readonly shared: boolean },
  environment: NodeJS.ProcessEnv = process.env,
): CheckpointKeys | undefined {
  if (option === false) {
    if (!warnedUnsigned) {
      warnedUnsigned = true;
      console.warn(
        '[interlude] checkpoint signing is off (checkpointKey: false): checkpoints, jobs and events are neither signed nor checked, so anyone who can write to the bus or hand in a checkpoint decides what runs',
      );
    }
    return undefined;
  }
  if (option !== undefined) return createCheckpointKeys(option);
  const variable = environment[CHECKPOINT_KEY_VARIABLE];
  // A process that builds a runtime per request reads the same variable every time: its keys are
  // those of the last value read while it stays the same (no split, no lookup by the key list).
  if (variable !== undefined && variable === fromVariable.value) return fromVariable.keys;
  const fromEnvironment = keysFromEnvironment(variable);
  if (fromEnvironment !== undefined) {
    let keys: CheckpointKeys;
    try {
      keys = createCheckpointKeys(fromEnvironment);
    } catch (error) {
      throw new TypeError(`${CHECKPOINT_KEY_VARIABLE}: ${(error as Error).message}`);
    }
    fromVariable = { value: variable, keys };
    return keys;
  }
  if (bus.shared) {
    throw new TrustError(
      'missing_checkpoint_key',
      `This runtime's bus is shared across processes, so its checkpoints, jobs and events must be signed: set ${CHECKPOINT_KEY_VARIABLE} (or pass checkpointKey) to the same secret in every process, or pass checkpointKey: false to run unsigned`,
    );
  }
  return busCheckpointKeys(bus);
}
