import type { Bus } from '../bus/bus.js';
import type { Checkpoint } from '../checkpoint/checkpoint.js';
import type { CheckpointKeys } from '../trust/checkpoint-keys.js';
import { readSegment } from './read-segment.js';
import { type SignedClaims, signedClaims } from './signed-claims.js';

/** What reads a claim chain: a runtime's bus, checked with its keys. */
type ClaimReader = { bus: Bus; keys: CheckpointKeys | undefined };

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
export async function canResume(runtime: ClaimReader, checkpoint: Checkpoint): Promise<boolean> {
  return (await checkpointStanding(runtime, checkpoint)) === 'waiting';
}

/** Where a checkpoint's pause stands (`pauseStanding` at the slot its resume claims). */
export function checkpointStanding(runtime: ClaimReader, checkpoint: Checkpoint): Promise<PauseStanding> {
  return pauseStanding(signedClaims(runtime), checkpoint.generation_id, checkpoint.claim_slot);
}

/** `canResume` by slot, saying why not: claimed, or cancelled. Forged records are skipped: they claim nothing. */
export async function pauseStanding(log: SignedClaims, generationId: string, slot: number): Promise<PauseStanding> {
  const { slot: claimSlot, record: claim } = await log.read(generationId, slot);
  if (claim === undefined) return 'waiting';
  if (claim.kind !== 'claim') return 'claimed';
  for (let from = claimSlot + 1; ; ) {
    const segment = await readSegment(log, generationId, from, claim.epoch);
    if (segment.end.kind === 'finished' && segment.end.record.error?.code === 'cancelled') return 'cancelled';
    if (segment.end.kind !== 'released') return 'claimed';
    // Given back: free again unless someone claimed the slot after the release.
    const next = await log.read(generationId, segment.end.slot + 1);
    if (next.record === undefined) return 'waiting';
    if (next.record.kind !== 'claim') return 'claimed';
    from = next.slot + 1;
  }
}
