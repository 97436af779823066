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
  return value as Checkpoint;
}
