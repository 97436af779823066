import type { Bus } from '../bus/bus.js';
import { type Checkpoint, canonicalCheckpoint } from '../checkpoint/checkpoint.js';
import { claimSlotOf } from './claim-target.js';
import { readSegment } from './read-segment.js';

/**
 * Whether a checkpoint can still be resumed, as far as the claim log says now: nobody claimed its
 * slot, or the run that did gave it back. For showing what waits on a person (a list of open
 * questions); a resume still claims, and the claim decides, so a stale answer here lets nothing
 * through twice. (A version 1 checkpoint is looked up by its digest, as its resume claims it.)
 */
export async function canResume(bus: Bus, checkpoint: Checkpoint): Promise<boolean> {
  const generationId = checkpoint.generation_id;
  const slot = claimSlotOf(checkpoint, canonicalCheckpoint(checkpoint));
  const claim = await bus.claims.read(generationId, slot);
  if (claim === undefined) return true;
  if (claim.kind !== 'claim' || typeof slot !== 'number') return false;
  for (let from = slot + 1; ; ) {
    const segment = await readSegment(bus.claims, generationId, from, claim.epoch);
    if (segment.end.kind !== 'released') return false;
    // Given back: free again unless someone claimed the slot after the release.
    const next = await bus.claims.read(generationId, segment.end.slot + 1);
    if (next === undefined) return true;
    if (next.kind !== 'claim') return false;
    from = segment.end.slot + 2;
  }
}
