import type { Bus, ClaimSlot } from '../bus/bus.js';
import { type Checkpoint, canonicalCheckpoint } from '../checkpoint/checkpoint.js';
import { ResumeError } from '../errors/resume-error.js';
import { runKeyOf } from '../generation/resume-context.js';
import { type Acquired, acquireRun } from './acquire-run.js';

/**
 * The slot a resume of `checkpoint` claims: its `claim_slot` (0 when a version 3 checkpoint leaves
 * it out), or, for a checkpoint without one (version 1, early version 2), a slot named after its
 * digest. `canonical` is its canonical form (`canonicalCheckpoint`).
 */
export function claimSlotOf(checkpoint: Checkpoint, canonical: string): ClaimSlot {
  return namedSlotOf(checkpoint) ?? `digest_${runKeyOf(canonical)}`;
}

function namedSlotOf(checkpoint: Checkpoint): number | undefined {
  return checkpoint.version >= 3 ? (checkpoint.claim_slot ?? 0) : checkpoint.claim_slot;
}

/**
 * Claims a checked checkpoint for one resume (see `acquireRun`). A checkpoint without a slot
 * (version 1) is also refused, as release 1 refused it, when the store holds a different one for
 * its generation: release 1 recorded consumption in the store, which this release no longer
 * reads. That extra refusal only ever refuses; an empty or failed load never lets a resume through.
 */
export async function claimCheckpoint(
  bus: Bus,
  checkpoint: Checkpoint,
  canonical: string,
  request: { mode: 'job' | 'in_process'; claimant?: string },
): Promise<Acquired> {
  if (namedSlotOf(checkpoint) === undefined) {
    const stored = await bus.checkpoints.load(checkpoint.generation_id);
    if (stored !== undefined && canonicalCheckpoint(stored.checkpoint) !== canonical) {
      throw new ResumeError(
        'already_resumed',
        `Generation ${checkpoint.generation_id} has moved past this checkpoint: it was already resumed`,
      );
    }
  }
  return acquireRun({
    log: bus.claims,
    generationId: checkpoint.generation_id,
    slot: claimSlotOf(checkpoint, canonical),
    ...request,
  });
}
