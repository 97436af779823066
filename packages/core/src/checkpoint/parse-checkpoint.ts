import { z } from 'zod';
import { quoteValue } from '../errors/quote-value.js';
import { ResumeError } from '../errors/resume-error.js';
import { MAX_NESTING_DEPTH, nestsDeeperThan } from '../json/nesting-depth.js';
import { CHECKPOINT_VERSION, type Checkpoint } from './checkpoint.js';
import { checkpointShape } from './checkpoint-shape.js';

/**
 * Checks that a value is a checkpoint object of the one version this release reads, before anything
 * else, so a newer format gets `unsupported_version` rather than a shape error. A value nested
 * absurdly deep is refused here too, before anything recursive (serialising it to check its
 * signature, say) can overflow the stack on it.
 */
export function assertCheckpointVersion(value: unknown): asserts value is Checkpoint {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ResumeError('invalid_checkpoint', 'A checkpoint must be a JSON object');
  }
  if (nestsDeeperThan(value)) {
    throw new ResumeError('invalid_checkpoint', `The checkpoint nests deeper than ${MAX_NESTING_DEPTH} levels`);
  }
  const version = (value as { version?: unknown }).version;
  if (version !== CHECKPOINT_VERSION) {
    throw new ResumeError(
      'unsupported_version',
      `Checkpoint version ${quoteValue(version)} is not supported (this release reads and writes version ${CHECKPOINT_VERSION})`,
    );
  }
}

/** Checks every field's type (after the version and, when a key is set, the signature). */
export function parseCheckpoint(value: unknown): Checkpoint {
  assertCheckpointVersion(value);
  const parsed = checkpointShape.safeParse(value);
  if (!parsed.success) {
    throw new ResumeError('invalid_checkpoint', `The checkpoint is malformed: ${z.prettifyError(parsed.error)}`);
  }
  assertNoProtoKeys(value);
  return value as Checkpoint;
}

/** The checkpoint's maps keyed by ids (a tool call's, a delegation's), whose every entry a resume reads. */
const KEYED_MAPS = ['completed_results', 'delegations'] as const;

/**
 * zod's `z.record` passes over a key named `__proto__` without checking its value, and the value
 * checked is returned as handed in, so `{"completed_results": {"__proto__": null}}` (an own key,
 * as `JSON.parse` makes it) passed the shape and failed later with a TypeError, after the checks
 * that should stop it. No tool call or delegation is named `__proto__`: refused here.
 */
function assertNoProtoKeys(checkpoint: Checkpoint): void {
  for (const field of KEYED_MAPS) {
    const map = checkpoint[field];
    if (map !== undefined && Object.hasOwn(map, '__proto__')) {
      throw new ResumeError('invalid_checkpoint', `The checkpoint is malformed: ${field} has a key named "__proto__"`);
    }
  }
}
