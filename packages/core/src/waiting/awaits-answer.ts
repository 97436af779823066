import type { ClaimLog } from '../bus/bus.js';
import { readSegment } from '../claims/read-segment.js';

/**
 * Whether a pause still waits on a person: the slot its resume claims is free, or every run that
 * claimed it gave it back (`released`, after a failure). Read where claims are decided, so an
 * answered, expired or cancelled pause never shows as waiting, whatever an index says.
 */
export async function awaitsAnswer(log: ClaimLog, generationId: string, slot: number): Promise<boolean> {
  let at = slot;
  for (;;) {
    const record = await log.read(generationId, at);
    if (record === undefined) return true;
    if (record.kind !== 'claim') return false;
    const segment = await readSegment(log, generationId, at + 1, record.epoch);
    if (segment.end.kind !== 'released') return false;
    at = segment.end.slot + 1;
  }
}
