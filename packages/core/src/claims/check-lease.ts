import { FencedError } from '../errors/fenced-error.js';
import { isOwnRecord, type RunLease } from './run-lease.js';

/**
 * Checks that a job's run still holds its generation before a step others can see (an event, a
 * model call, a change to a view): its next slot in the claim log is free, or its own. A holder
 * that stalled past its lease (SIGSTOP, a frozen VM, a busy event loop) finds its slot taken by
 * the delivery that took the run over, and is fenced out there (`FencedError`) instead of at its
 * next write. Other runs cannot be taken over, and a run that wrote its stop holds nothing more
 * to lose: neither reads anything.
 */
export async function checkLease(lease: RunLease): Promise<void> {
  if (lease.mode !== 'job') return;
  if (lease.fencedOut) throw new FencedError(lease.generationId, lease.epoch);
  if (lease.ended) return;
  const found = await lease.log.read(lease.generationId, lease.cursor);
  // Past forgeries (which hold no slot): the next step, and a pause's slot, go after them.
  if (found.record === undefined) lease.cursor = found.slot;
  if (found.record === undefined || isOwnRecord(found.record, lease.holder)) return;
  lease.ended = true;
  lease.fencedOut = true;
  throw new FencedError(lease.generationId, lease.epoch);
}
