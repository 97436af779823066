import type { ClaimRecord } from '../bus/bus.js';
import type { SignedClaims } from './signed-claims.js';

/** How a run that claimed a slot stands, read from the slots after its claim. */
export interface Segment {
  end:
    | { kind: 'open'; slot: number }
    | { kind: 'paused' | 'finished' | 'released'; slot: number; record: ClaimRecord }
    /** Another claim follows with no stop between: an in-process run paused there (it writes no `paused`). */
    | { kind: 'resumed'; slot: number };
  /** The highest epoch the run reached (one more per takeover). */
  epoch: number;
  /** Calls whose `tool_started` step the run wrote, by call id (the tool's name as value). */
  started: Map<string, string>;
}

/**
 * Reads one run's steps, from `from` (the slot after its claim) to its stop or the first free
 * slot. Every read goes where writes are decided, so what it finds is what every process finds.
 */
export async function readSegment(
  log: SignedClaims,
  generationId: string,
  from: number,
  claimEpoch: number,
): Promise<Segment> {
  const started = new Map<string, string>();
  let epoch = claimEpoch;
  for (let next = from; ; ) {
    const { slot, record } = await log.read(generationId, next);
    next = slot + 1;
    if (record === undefined) return { end: { kind: 'open', slot }, epoch, started };
    epoch = Math.max(epoch, record.epoch);
    switch (record.kind) {
      case 'claim':
        return { end: { kind: 'resumed', slot }, epoch, started };
      case 'tool_started':
        if (record.tool_call_id !== undefined) started.set(record.tool_call_id, record.tool_name ?? '');
        break;
      case 'takeover':
        break;
      case 'paused':
      case 'finished':
      case 'released':
        return { end: { kind: record.kind, slot, record }, epoch, started };
    }
  }
}
