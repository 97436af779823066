import type { Bus } from '@interlude/core';
import { expect } from 'vitest';
import { expectContiguousLog } from './expect-contiguous-log.js';
import { countByCall, type Ledger, type SideEffectRow } from './reliability-ledger.js';

/** Each generation's lookup and refund side effect exactly once, across every process; no leak. */
export async function expectEachSideEffectOnce(
  ledger: Ledger,
  generationIds: readonly string[],
): Promise<SideEffectRow[]> {
  const ours = new Set(generationIds);
  const rows = (await ledger.rows()).filter((row) => ours.has(row.generation_id) || row.tool === 'LEAK');
  expect(rows.filter((row) => row.tool === 'LEAK')).toEqual([]);
  const counts = countByCall(rows);
  for (const generationId of generationIds) {
    expect(counts.get(`${generationId}/call_lookup`), generationId).toBe(1);
    expect(counts.get(`${generationId}/call_refund`), generationId).toBe(1);
  }
  expect(rows).toHaveLength(2 * generationIds.length);
  return rows;
}

/** Every generation's log whole (`expectContiguousLog`); returns how many events they hold. */
export async function expectWholeLogs(
  bus: Pick<Bus, 'events'>,
  servers: string | string[],
  generationIds: readonly string[],
): Promise<number> {
  let events = 0;
  for (const generationId of generationIds) events += (await expectContiguousLog(bus, servers, generationId)).length;
  return events;
}
