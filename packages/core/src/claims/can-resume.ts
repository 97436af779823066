import type { Bus, ClaimLog } from '../bus/bus.js';
import type { Checkpoint } from '../checkpoint/checkpoint.js';
import { readSegment } from './read-segment.js';

/**
 * Where a pause stands in the claim log now: still `waiting` (nobody claimed its slot, or the run
 * that did gave it back), `cancelled` (`runtime.cancel()` took it), or `claimed` (resumed, by a
 * person or its deadline).
 */
export type PauseStanding = 'waiting' | 'claimed' | 'cancelled';

/**
 * Whether a checkpoint can still be resumed, as far as the claim log says now: nobody claimed its
 * slot, or the run that did gave it back. For showing what waits on a person (a list of open
 * questions); a resume still claims, and the claim decides, so a stale answer here lets nothing
 * through twice.
 */
export async function canResume(bus: Bus, checkpoint: Checkpoint): Promise<boolean> {
  return (await checkpointStanding(bus, checkpoint)) === 'waiting';
}

/** Where a checkpoint's pause stands (`pauseStanding` at the slot its resume claims). */
export function checkpointStanding(bus: Bus, checkpoint: Checkpoint): Promise<PauseStanding> {
  return pauseStanding(bus.claims, checkpoint.generation_id, checkpoint.claim_slot);
}

/** `canResume` by slot, saying why not: claimed, or cancelled. */
export async function pauseStanding(log: ClaimLog, generationId: string, slot: number): Promise<PauseStanding> {
  const claim = await log.read(generationId, slot);
  if (claim === undefined) return 'waiting';
  if (claim.kind !== 'claim') return 'claimed';
  for (let from = slot + 1; ; ) {
    const segment = await readSegment(log, generationId, from, claim.epoch);
    if (segment.end.kind === 'finished' && segment.end.record.error?.code === 'cancelled') return 'cancelled';
    if (segment.end.kind !== 'released') return 'claimed';
    // Given back: free again unless someone claimed the slot after the release.
    const next = await log.read(generationId, segment.end.slot + 1);
    if (next === undefined) return 'waiting';
    if (next.kind !== 'claim') return 'claimed';
    from = segment.end.slot + 2;
  }
}
