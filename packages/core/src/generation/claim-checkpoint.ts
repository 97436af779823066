import type { CheckpointStore, StoredCheckpoint } from '../bus/bus.js';
import type { Checkpoint } from '../checkpoint/checkpoint.js';
import { canonicalCheckpoint } from '../checkpoint/checkpoint.js';
import { ResumeError } from '../errors/resume-error.js';

/**
 * Claims the stored checkpoint a resume starts from, so of two resumes of one checkpoint exactly
 * one goes on. A checkpoint the store has never seen (kept by the caller only, or from another
 * deployment) cannot be claimed and is let through; one the store has moved past is refused.
 * `canonical` is the checkpoint's canonical form (`canonicalCheckpoint`), which the caller also
 * names the run by. When the checkpoint's signature was verified (`verified`), comparing
 * signatures says the same at no cost: a signature is a digest of the whole content, and a record
 * someone wrote under a copied signature only makes this resume claim it, while the resume runs
 * the verified checkpoint.
 */
export async function claimCheckpoint(
  store: CheckpointStore,
  checkpoint: Checkpoint,
  claimant: string,
  canonical: string,
  verified: boolean,
): Promise<StoredCheckpoint | undefined> {
  const stored = await store.load(checkpoint.generation_id);
  if (stored === undefined) return undefined;
  const same =
    verified && typeof checkpoint.signature === 'string'
      ? stored.checkpoint?.signature === checkpoint.signature
      : typeof stored.checkpoint === 'object' &&
        stored.checkpoint !== null &&
        canonicalCheckpoint(stored.checkpoint) === canonical;
  if (!same) {
    throw new ResumeError(
      'already_resumed',
      `Generation ${checkpoint.generation_id} has moved past this checkpoint: it was already resumed`,
    );
  }
  if (stored.claimedBy !== undefined && stored.claimedBy !== claimant) {
    throw new ResumeError(
      'already_resumed',
      `Generation ${checkpoint.generation_id} was already resumed from this checkpoint`,
    );
  }
  await store.claim(checkpoint.generation_id, stored.revision, claimant);
  return stored;
}
