import type { ClaimSlot } from '../bus/bus.js';

/**
 * The id of the job that meets one pause's deadline: fixed per pause, so a deadline met twice (a
 * worker died or stalled meeting it) is one job, whose second delivery finds the first one's
 * claim as its own and takes its run over, or finds it done.
 */
export function expiryJobId(generationId: string, slot: ClaimSlot): string {
  return `expiry_${generationId}_${slot}`;
}
