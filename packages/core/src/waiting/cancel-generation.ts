import { EVENT_VERSION, type GenerationEvent } from '../bus/events.js';
import { canonicalCheckpoint } from '../checkpoint/checkpoint.js';
import { verifyCheckpoint } from '../checkpoint/sign-checkpoint.js';
import { claimCheckpoint } from '../claims/claim-target.js';
import { recordFor } from '../claims/run-lease.js';
import { signedClaims } from '../claims/signed-claims.js';
import { ResumeError } from '../errors/resume-error.js';
import { eventIdOf } from '../generation/event-publisher.js';
import { runKeyOf } from '../generation/resume-context.js';
import type { Runtime } from '../runtime/runtime.js';
import { forgetWaiting } from './record-waiting.js';
import { storedPause } from './stored-pause.js';

/** The error code a cancelled run's `finished` step carries, which later claims read as `cancelled`. */
export const CANCELLED_CODE = 'cancelled';

/**
 * Closes a paused generation for good: claims its stored checkpoint as a resume would (so of a
 * cancel and a racing answer exactly one wins), ends that claim with a `finished` step that says
 * `cancelled`, publishes a `cancelled` event and takes the generation off the pending list. Later
 * answers are refused with `ResumeError` code `cancelled`; a cancel that lost to an answer is
 * refused with `already_resumed`, a second cancel with `cancelled`.
 */
export async function cancelGeneration(runtime: Runtime, generationId: string, reason: string): Promise<void> {
  if (typeof generationId !== 'string' || generationId === '') {
    throw new TypeError('cancel() needs the generation id');
  }
  if (typeof reason !== 'string' || reason.trim() === '') throw new TypeError('cancel() needs a reason');
  const { bus } = runtime;
  // The stored checkpoint if it verifies, else the pause rebuilt from the generation's log.
  const found = await storedPause(runtime, generationId);
  const stored = found.verified ?? found.stored;
  if (stored === undefined || stored.checkpoint?.generation_id !== generationId) {
    throw new ResumeError('not_found', `No paused generation ${generationId} is stored`);
  }
  const { checkpoint } = stored;
  // Only a checkpoint this runtime signed (with its params, in its deployment) is cancelled.
  const { unsigned } = verifyCheckpoint(checkpoint, runtime.keys, {
    params: stored.params,
    audience: await runtime.audience(),
  });
  const canonical =
    unsigned === undefined ? canonicalCheckpoint(checkpoint) : canonicalCheckpoint(checkpoint, unsigned);
  const acquired = await claimCheckpoint(runtime, checkpoint, { mode: 'in_process' });
  if (acquired.outcome !== 'run') throw new Error('an in-process claim cannot find a stopped run of its own');
  const { lease } = acquired;
  const error = { name: 'Cancelled', message: reason, code: CANCELLED_CODE };
  await signedClaims(runtime).write(generationId, lease.cursor, recordFor(lease, 'finished', { error }), {
    keyId: lease.keyId,
  });
  const run = runKeyOf(canonical);
  const event: GenerationEvent = {
    version: EVENT_VERSION,
    id: eventIdOf({ generationId, run, epoch: lease.epoch }, 0),
    event: 'cancelled',
    agent: checkpoint.agent,
    action: checkpoint.action_name,
    generation_id: generationId,
    run,
    index: 0,
    ...(lease.epoch !== 1 && { epoch: lease.epoch }),
    time: new Date().toISOString(),
    data: { reason, claim_slot: checkpoint.claim_slot },
  };
  await bus.publish(event);
  await forgetWaiting(bus, generationId);
}
