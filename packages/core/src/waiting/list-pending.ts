import type { PendingRecord } from '../bus/bus.js';
import { pauseStanding } from '../claims/can-resume.js';
import { askedInputRequest } from '../input-request/asked-input-request.js';
import type { Runtime } from '../runtime/runtime.js';
import type { PendingFilter, PendingGeneration } from './pending-generation.js';

export type { PendingFilter, PendingGeneration } from './pending-generation.js';

/**
 * The generations paused on a question right now, oldest first: listed by the bus's pending
 * index (this deployment's only: those whose checkpoint was signed for the runtime's audience),
 * each confirmed against the claim log (answered, cancelled or claimed by its deadline, it is not
 * listed) and left out once its deadline has passed, since an answer would be refused.
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
  const candidates = (await index.list(narrowed)).filter(
    (record) => record.input_expires_at === undefined || Date.parse(record.input_expires_at) > now,
  );
  const waiting = await Promise.all(
    candidates.map(
      async (record) =>
        (await pauseStanding(runtime.bus.claims, record.generation_id, record.claim_slot)) === 'waiting',
    ),
  );
  return candidates
    .filter((_, position) => waiting[position])
    .map(toPendingGeneration)
    .sort((a, b) => a.askedAt.getTime() - b.askedAt.getTime());
}

function toPendingGeneration(record: PendingRecord): PendingGeneration {
  return {
    generationId: record.generation_id,
    agent: record.agent,
    action: record.action,
    requests: record.input_requests.map(askedInputRequest),
    askedAt: new Date(record.asked_at),
    expiresAt: record.input_expires_at === undefined ? undefined : new Date(record.input_expires_at),
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
