import type { Bus } from '../bus/bus.js';
import type { Checkpoint } from '../checkpoint/checkpoint.js';
import type { CheckpointKeys } from '../trust/checkpoint-keys.js';
import { type Acquired, acquireRun } from './acquire-run.js';
import { signedClaims } from './signed-claims.js';

/**
 * Claims a checked checkpoint for one resume at its `claim_slot` (see `acquireRun`), signing the
 * run's records with the checkpoint's key. The store's copy decides nothing: an empty or failed
 * load never lets a resume through.
 */
export function claimCheckpoint(
  runtime: { bus: Bus; keys: CheckpointKeys | undefined },
  checkpoint: Checkpoint,
  request: { mode: 'job' | 'in_process'; claimant?: string },
): Promise<Acquired> {
  return acquireRun({
    log: signedClaims(runtime),
    keyId: checkpoint.key_id,
    generationId: checkpoint.generation_id,
    slot: checkpoint.claim_slot,
    ...request,
  });
}
