import type { Job } from '../bus/bus.js';
import { TrustError } from '../errors/trust-error.js';
import { canonicalJson } from './canonical-json.js';
import type { CheckpointKeys } from './checkpoint-keys.js';

/**
 * The job with its `key_id` and `signature`: HMAC-SHA256 (base64url) over the canonical JSON of
 * every other field, `key_id` included (its answers and the checkpoint it resumes too), as a
 * checkpoint is signed. Without keys it is returned unsigned.
 */
export function signJob(job: Job, keys: CheckpointKeys | undefined): Job {
  const { signature: _signature, key_id: _keyId, ...rest } = job;
  if (keys === undefined) return rest;
  const unsigned = { ...rest, key_id: keys.signingKeyId };
  return { ...unsigned, signature: keys.sign('job', canonicalJson(unsigned)) };
}

/**
 * Refuses, before anything runs, a job a runtime holding `keys` did not enqueue: unsigned
 * (`unsigned_job`) or with a signature that does not match or names a key it does not hold
 * (`forged_job`). Also refuses a resume job that does not carry the checkpoint it resumes
 * (`job_without_checkpoint`): the stored one must not be run with answers nobody signed for it.
 * Without keys (signing off) only that last check is made.
 */
export function verifyJob(job: Job, keys: CheckpointKeys | undefined): void {
  if (keys !== undefined) {
    const { signature, ...unsigned } = job;
    if (typeof signature !== 'string' || typeof job.key_id !== 'string') {
      throw new TrustError('unsigned_job', `Job ${describe(job)} is not signed; this runtime runs only signed jobs`);
    }
    const held = keys.keyIds.includes(job.key_id);
    if (!held || !keys.verify('job', canonicalJson(unsigned), job.key_id, signature)) {
      throw new TrustError(
        'forged_job',
        !held
          ? `Job ${describe(job)} was signed with a key this runtime does not hold`
          : `Job ${describe(job)} has a signature that does not match its content: it was forged or altered`,
      );
    }
  }
  if (job.kind === 'resume' && (typeof job.checkpoint !== 'object' || job.checkpoint === null)) {
    throw new TrustError(
      'job_without_checkpoint',
      `Resume job ${describe(job)} does not carry the checkpoint it resumes; the stored one is not resumed in its place`,
    );
  }
}

/** The job as a message names it: quoted and cut short, since a forger chose these strings. */
function describe(job: Job): string {
  const quoted = (value: unknown) => JSON.stringify(typeof value === 'string' ? value.slice(0, 64) : null);
  return `${quoted(job.id)} (generation ${quoted(job.generation_id)})`;
}
