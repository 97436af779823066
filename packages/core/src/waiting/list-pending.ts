import type { PendingRecord } from '../bus/bus.js';
import { pauseStanding } from '../claims/can-resume.js';
import { signedClaims } from '../claims/signed-claims.js';
import { askedInputRequest } from '../input-request/asked-input-request.js';
import type { Runtime } from '../runtime/runtime.js';
import type { PendingFilter, PendingGeneration } from './pending-generation.js';
import { storedPause } from './stored-pause.js';

export type { PendingFilter, PendingGeneration } from './pending-generation.js';

/**
 * The generations paused on a question right now, oldest first. A view, not a store: the bus's
 * pending index only says which generations to look at (this deployment's: those whose checkpoint
 * was signed for the runtime's audience); what is listed is read from each one's stored checkpoint,
 * believed only once its signature verifies with its params and it names that generation and the
 * indexed slot (else rebuilt from the generation's log, `storedPause`), and confirmed against the
 * claim log (answered, cancelled or claimed by its deadline, it is not listed). A pause is left out once its deadline has passed, since an answer
 * would be refused. So an index record a keyless client wrote, or one a crash left behind,
 * relabels nothing and lists nothing: the questions shown are the signed checkpoint's.
 */
export async function listPending(runtime: Runtime, filter: PendingFilter = {}): Promise<PendingGeneration[]> {
  checkFilter(filter);
  const index = runtime.bus.pending;
  if (index === undefined) return [];
  const now = Date.now();
  // Another deployment on the same server (its checkpoints signed for another audience) is not ours to list.
  const audience = await runtime.audience();
  const narrowed = {
    ...(filter.agent !== undefined && { agent: filter.agent }),
    ...(filter.action !== undefined && { action: filter.action }),
    ...(audience !== undefined && { audience }),
  };
  const listed = await Promise.all((await index.list(narrowed)).map((record) => verifiedPause(runtime, record, now)));
  return listed
    .filter((pause): pause is PendingGeneration => pause !== undefined)
    .filter(
      (pause) =>
        (filter.agent === undefined || pause.agent === filter.agent) &&
        (filter.action === undefined || pause.action === filter.action),
    )
    .sort((a, b) => a.askedAt.getTime() - b.askedAt.getTime());
}

/** The pause an index record points at, read from its verified checkpoint, if it still waits. */
async function verifiedPause(
  runtime: Runtime,
  record: PendingRecord,
  now: number,
): Promise<PendingGeneration | undefined> {
  const generationId = record.generation_id;
  if (typeof generationId !== 'string' || typeof record.claim_slot !== 'number') return undefined;
  // Answered, cancelled or claimed by its deadline (or an entry a crash left behind): no checkpoint to read.
  if ((await pauseStanding(signedClaims(runtime), generationId, record.claim_slot)) !== 'waiting') return undefined;
  // The stored checkpoint if it verifies for that slot, else the pause rebuilt from the generation's log.
  const { verified } = await storedPause(runtime, generationId, { slot: record.claim_slot });
  if (verified === undefined) return undefined;
  const { checkpoint } = verified;
  const deadline = checkpoint.input_expires_at;
  if (deadline !== undefined && Date.parse(deadline) <= now) return undefined;
  const askedAt = new Date(record.asked_at);
  return {
    generationId,
    agent: checkpoint.agent,
    action: checkpoint.action_name,
    inputRequests: checkpoint.input_requests.map(askedInputRequest),
    // The index's one fact of its own, and only an order: a bad one sorts first.
    askedAt: Number.isNaN(askedAt.getTime()) ? new Date(0) : askedAt,
    expiresAt: deadline === undefined ? undefined : new Date(deadline),
  };
}

function checkFilter(filter: unknown): asserts filter is PendingFilter {
  if (typeof filter !== 'object' || filter === null) throw new TypeError('pending() takes { agent?, action? }');
  for (const key of ['agent', 'action'] as const) {
    const value = (filter as Record<string, unknown>)[key];
    if (value !== undefined && (typeof value !== 'string' || value === '')) {
      throw new TypeError(`pending()'s ${key} must be a non-empty string, got ${JSON.stringify(value)}`);
    }
  }
}
