import { ResumeError } from '../errors/resume-error.js';
import { canonicalJson } from '../trust/canonical-json.js';
import { type CheckpointKeys, createCheckpointKeys } from '../trust/checkpoint-keys.js';
import { type Checkpoint, canonicalUnsigned, orderCheckpoint } from './checkpoint.js';
import { omitCheckpointDefaults } from './checkpoint-defaults.js';

/** Keys as a runtime holds them, or as given by hand (one key, or several). */
export type KeysLike = CheckpointKeys | string | readonly string[];

/** What a checkpoint is signed with and for: the keys, the action's params, the deployment and an expiry. */
export interface CheckpointSigning {
  keys: KeysLike;
  /** The params of the action that paused: a resume with other params is refused. */
  params: unknown;
  /** The deployment's name; another deployment refuses the checkpoint. */
  audience?: string;
  /** ISO time after which a resume is refused. */
  expiresAt?: string;
}

/** What a resume expects of a checkpoint's signed fields. */
export interface CheckpointExpectations {
  /** The params the resume runs the action with. */
  params: unknown;
  /** This deployment's audience (undefined when it has none). */
  audience: string | undefined;
  /** The current time in milliseconds (for the expiry); default `Date.now()`. */
  now?: number;
  /**
   * The checkpoint's canonical JSON without its signature, when it was made from this very object
   * already (`storedPause` verified the pause a resume by id then resumes): the signature is
   * checked over it, with these params, without serializing the checkpoint again.
   */
  unsigned?: string;
}

/**
 * The checkpoint in its written form (defaults left out, keys in order) and, when signing, with
 * `audience`, `expires_at`, `key_id` and `signature` set: HMAC-SHA256 in base64url over the
 * RFC 8785 canonical JSON of everything but the signature and that of the action's params, so
 * key order does not matter and other params are refused. Without signing it is returned unsigned.
 */
export function signCheckpoint(checkpoint: Checkpoint, signing: CheckpointSigning | undefined): Checkpoint {
  const { signature: _signature, key_id: _keyId, ...written } = checkpoint;
  const rest = omitCheckpointDefaults(written as Checkpoint);
  if (signing === undefined) return orderCheckpoint(rest);
  const keys = toKeys(signing.keys);
  const unsigned = orderCheckpoint({
    ...rest,
    ...(signing.audience !== undefined && { audience: signing.audience }),
    ...(signing.expiresAt !== undefined && { expires_at: signing.expiresAt }),
    key_id: keys.signingKeyId,
  } as Checkpoint);
  return { ...unsigned, signature: keys.sign('checkpoint', signedContent(canonicalOf(unsigned), signing.params)) };
}

/**
 * Refuses, with `ResumeError`, a checkpoint a runtime holding `keys` must not resume: unsigned,
 * altered, signed with a key it does not hold, resumed with other params (`bad_signature`), taken
 * in another deployment (`audience_mismatch`) or past its expiry (`expired`). Without keys
 * (signing turned off) only the audience and expiry are checked.
 */
export function verifyCheckpointSignature(
  checkpoint: Checkpoint,
  keys: KeysLike | undefined,
  expected: CheckpointExpectations,
): void {
  verifyCheckpoint(checkpoint, keys, expected);
}

/**
 * `verifyCheckpointSignature`, handing back the canonical JSON of the checkpoint without its
 * signature when it made it (with keys), so a resume serializes once.
 */
export function verifyCheckpoint(
  checkpoint: Checkpoint,
  keys: KeysLike | undefined,
  expected: CheckpointExpectations,
): { unsigned: string | undefined } {
  const unsigned =
    keys === undefined ? undefined : verifySignature(checkpoint, toKeys(keys), expected.params, expected.unsigned);
  const audience = typeof checkpoint.audience === 'string' ? checkpoint.audience : undefined;
  if (audience !== expected.audience) {
    throw new ResumeError(
      'audience_mismatch',
      `The checkpoint was taken in deployment ${JSON.stringify(audience ?? null)}, not this one (${JSON.stringify(expected.audience ?? null)})`,
    );
  }
  if (checkpoint.expires_at !== undefined) {
    const expiresAt = typeof checkpoint.expires_at === 'string' ? Date.parse(checkpoint.expires_at) : Number.NaN;
    if (Number.isNaN(expiresAt)) throw new ResumeError('invalid_checkpoint', 'The checkpoint expires_at is not a time');
    if ((expected.now ?? Date.now()) > expiresAt) {
      throw new ResumeError('expired', `The checkpoint expired at ${checkpoint.expires_at}`);
    }
  }
  return { unsigned };
}

/** Checks the signature; returns the checkpoint's canonical JSON without it. */
function verifySignature(
  checkpoint: Checkpoint,
  keys: CheckpointKeys,
  params: unknown,
  known: string | undefined,
): string {
  const { key_id: keyId, signature } = checkpoint;
  if (typeof signature !== 'string' || typeof keyId !== 'string') {
    throw new ResumeError(
      'bad_signature',
      'The checkpoint is not signed, and this runtime requires signed checkpoints',
    );
  }
  if (!keys.keyIds.includes(keyId)) {
    throw new ResumeError(
      'bad_signature',
      `The checkpoint was signed with key ${JSON.stringify(keyId.slice(0, 16))}, which this runtime does not hold`,
    );
  }
  const unsigned = known ?? canonicalOf(checkpoint);
  if (!keys.verify('checkpoint', signedContent(unsigned, params), keyId, signature)) {
    throw new ResumeError(
      'bad_signature',
      'The checkpoint signature does not match: it was altered, or is resumed with other params than it was taken with',
    );
  }
  return unsigned;
}

/**
 * What the signature covers: the RFC 8785 canonical JSON of the checkpoint without its
 * signature, a newline (which canonical JSON never holds), and that of the params in their JSON
 * form. The purpose label goes in front (`CheckpointKeys.sign`).
 */
function signedContent(unsigned: string, params: unknown): string {
  return `${unsigned}\n${canonicalJson(jsonForm(params))}`;
}

/** The checkpoint's canonical JSON without its signature; one with no JSON form (a cycle) is `invalid_checkpoint`. */
export function canonicalOf(checkpoint: Checkpoint): string {
  try {
    return canonicalUnsigned(checkpoint);
  } catch (error) {
    throw new ResumeError('invalid_checkpoint', `The checkpoint is not JSON: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** Params as they read back from any store: what JSON keeps of them (undefined as null). */
function jsonForm(params: unknown): unknown {
  if (params === undefined) return null;
  if (typeof params !== 'object' || params === null) return params;
  try {
    return JSON.parse(JSON.stringify(params)) as unknown;
  } catch (error) {
    throw new ResumeError('invalid_checkpoint', `The action's params are not JSON: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

function toKeys(keys: KeysLike): CheckpointKeys {
  return typeof keys === 'string' || Array.isArray(keys) ? createCheckpointKeys(keys) : (keys as CheckpointKeys);
}
