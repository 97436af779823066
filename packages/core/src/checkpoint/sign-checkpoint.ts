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
}

/**
 * The checkpoint with its keys in order and, when signing, `audience`, `expires_at`, `key_id` and
 * `signature` set. A version 2 checkpoint is signed over the RFC 8785 canonical JSON of
 * everything but the signature and that of the action's params, so key order does not matter and
 * other params are refused. A version 1 checkpoint is signed as version 1 was
 * (HMAC over the ordered JSON, no params), for tests of old checkpoints. Without signing it is
 * returned in order, unsigned.
 */
export function signCheckpoint(checkpoint: Checkpoint, signing: CheckpointSigning | undefined): Checkpoint {
  const { signature: _signature, key_id: _keyId, ...written } = checkpoint;
  const rest = written.version >= 3 ? omitCheckpointDefaults(written as Checkpoint) : written;
  if (signing === undefined) return orderCheckpoint(rest as Checkpoint);
  const keys = toKeys(signing.keys);
  if (checkpoint.version === 1) {
    const ordered = orderCheckpoint(rest as Checkpoint);
    // Version 1 had no purpose label and no key ids: the raw HMAC of its ordered JSON.
    return { ...ordered, signature: keys.signUnlabelled(JSON.stringify(ordered)) };
  }
  const unsigned = orderCheckpoint({
    ...rest,
    ...(signing.audience !== undefined && { audience: signing.audience }),
    ...(signing.expiresAt !== undefined && { expires_at: signing.expiresAt }),
    key_id: keys.signingKeyId,
  } as Checkpoint);
  const signature = keys.sign('checkpoint', signedContent(canonicalOf(unsigned), signing.params));
  // Version 3 writes the HMAC in base64url: 43 characters instead of 64.
  return {
    ...unsigned,
    signature: unsigned.version >= 3 ? Buffer.from(signature, 'hex').toString('base64url') : signature,
  };
}

/**
 * Refuses, with `ResumeError`, a checkpoint a runtime holding `keys` must not resume: unsigned,
 * altered, signed with a key it does not hold, resumed with other params (`bad_signature`), taken
 * in another deployment (`audience_mismatch`) or past its expiry (`expired`). Without keys
 * (signing turned off) only the audience and expiry are checked. A version 1 checkpoint is
 * verified as version 1 was signed: its signature covers neither params nor an audience.
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
 * signature when it made it (a version 2 checkpoint with keys), so a resume serializes once.
 */
export function verifyCheckpoint(
  checkpoint: Checkpoint,
  keys: KeysLike | undefined,
  expected: CheckpointExpectations,
): { unsigned: string | undefined } {
  const held = keys === undefined ? undefined : toKeys(keys);
  if (checkpoint.version === 1) {
    if (held !== undefined) verifyVersion1(checkpoint, held);
    return { unsigned: undefined };
  }
  const unsigned = held === undefined ? undefined : verifyVersion2(checkpoint, held, expected.params);
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

/** Checks a version 2 signature; returns the checkpoint's canonical JSON without it. */
function verifyVersion2(checkpoint: Checkpoint, keys: CheckpointKeys, params: unknown): string {
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
  const unsigned = canonicalOf(checkpoint);
  const hex = checkpoint.version >= 3 ? hexOfBase64url(signature) : signature;
  if (!keys.verify('checkpoint', signedContent(unsigned, params), keyId, hex)) {
    throw new ResumeError(
      'bad_signature',
      'The checkpoint signature does not match: it was altered, or is resumed with other params than it was taken with',
    );
  }
  return unsigned;
}

/** A version 3 signature as the keys compare it; anything but 43 base64url characters is no signature. */
function hexOfBase64url(signature: string): string {
  return /^[A-Za-z0-9_-]{43}$/.test(signature) ? Buffer.from(signature, 'base64url').toString('hex') : '';
}

function verifyVersion1(checkpoint: Checkpoint, keys: CheckpointKeys): void {
  const { signature, ...unsigned } = checkpoint;
  if (typeof signature !== 'string') {
    throw new ResumeError(
      'bad_signature',
      'The checkpoint is not signed, and this runtime requires signed checkpoints',
    );
  }
  if (!keys.verifyUnlabelled(JSON.stringify(orderCheckpoint(unsigned as Checkpoint)), signature)) {
    throw new ResumeError(
      'bad_signature',
      'The checkpoint signature does not match: it was altered or signed with another key',
    );
  }
}

/**
 * What a version 2 signature covers: the RFC 8785 canonical JSON of the checkpoint without its
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
