import { createHmac, timingSafeEqual } from 'node:crypto';
import { ResumeError } from '../errors/resume-error.js';
import { type AnyCheckpoint, orderCheckpoint } from './checkpoint.js';

/** HMAC-SHA256 over the checkpoint without its signature, keys in their written order. */
export function signatureOf(checkpoint: AnyCheckpoint, key: string): string {
  const { signature: _ignored, ...unsigned } = checkpoint;
  return createHmac('sha256', key)
    .update(JSON.stringify(orderCheckpoint(unsigned as AnyCheckpoint)))
    .digest('hex');
}

/** The checkpoint with its `signature` set (last key), or unchanged when there is no key. */
export function signCheckpoint<Version extends AnyCheckpoint>(checkpoint: Version, key: string | undefined): Version {
  const { signature: _ignored, ...unsigned } = checkpoint;
  const ordered = orderCheckpoint(unsigned as Version);
  if (key === undefined) return ordered;
  return { ...ordered, signature: signatureOf(ordered, key) };
}

/** Refuses a checkpoint whose signature is missing or does not match, so a client cannot alter one. */
export function verifyCheckpointSignature(checkpoint: AnyCheckpoint, key: string | undefined): void {
  if (key === undefined) return;
  if (typeof checkpoint.signature !== 'string') {
    throw new ResumeError(
      'bad_signature',
      'The checkpoint is not signed, and this runtime requires signed checkpoints',
    );
  }
  const expected = Buffer.from(signatureOf(checkpoint, key), 'hex');
  // Buffer.from(…, 'hex') stops at the first non-hex character, so check the written form first.
  const wellFormed = /^[0-9a-f]{64}$/.test(checkpoint.signature);
  const given = Buffer.from(wellFormed ? checkpoint.signature : '', 'hex');
  if (!wellFormed || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new ResumeError(
      'bad_signature',
      'The checkpoint signature does not match: it was altered or signed with another key',
    );
  }
}
