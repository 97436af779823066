import type { Bus } from '../bus/bus.js';
import type { Checkpoint } from '../checkpoint/checkpoint.js';
import { type Acquired, acquireRun } from './acquire-run.js';

/**
 * Claims a checked checkpoint for one resume at its `claim_slot` (see `acquireRun`). The store's
 * copy decides nothing: an empty or failed load never lets a resume through.
 */
export function claimCheckpoint(
  bus: Bus,
  checkpoint: Checkpoint,
  request: { mode: 'job' | 'in_process'; claimant?: string },
): Promise<Acquired> {
  return acquireRun({
    log: bus.claims,
    generationId: checkpoint.generation_id,
    slot: checkpoint.claim_slot,
    ...request,
  });
}
