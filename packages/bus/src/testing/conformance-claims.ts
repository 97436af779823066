import type { Bus } from '@interlude/core';
import type { ClaimWrite } from '@interlude/core/internal';
import { expect, it } from 'vitest';
import { sampleClaim, uniqueId } from './fixtures.js';

const winner = (write: ClaimWrite, holder: string) =>
  write.stored || write.record.holder === holder ? holder : write.record.holder;

/** Write-once slots: one winner per slot, every reader sees it, a retried write knows itself. */
export function claimCases(bus: () => Bus): void {
  it('stores the first write to a slot and answers every later one with it', async () => {
    const generationId = uniqueId('gen');
    expect(await bus().claims.read(generationId, 0)).toBeUndefined();
    expect(await bus().claims.write(generationId, 0, sampleClaim('holder_a', { claimant: 'job_a' }))).toEqual({
      stored: true,
    });
    const second = await bus().claims.write(generationId, 0, sampleClaim('holder_b'));
    expect(second).toMatchObject({ stored: false, record: { holder: 'holder_a', claimant: 'job_a', kind: 'claim' } });
    expect(await bus().claims.read(generationId, 0)).toMatchObject({ holder: 'holder_a', epoch: 1 });
    // Other slots and other generations are their own.
    expect(await bus().claims.write(generationId, 1, sampleClaim('holder_b', { kind: 'tool_started' }))).toEqual({
      stored: true,
    });
    expect(await bus().claims.write(uniqueId('gen'), 0, sampleClaim('holder_b'))).toEqual({ stored: true });
  });

  it('a write sent again (its answer was lost) finds its own record', async () => {
    const generationId = uniqueId('gen');
    const record = sampleClaim('holder_a');
    await bus().claims.write(generationId, 3, record);
    const again = await bus().claims.write(generationId, 3, record);
    expect(winner(again, 'holder_a')).toBe('holder_a');
  });

  it('of concurrent writes to one slot exactly one is stored, and every writer agrees which', async () => {
    const races = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const generationId = uniqueId('gen');
        const holders = ['left', 'middle', 'right'];
        const writes = await Promise.all(
          holders.map((holder) => bus().claims.write(generationId, 0, sampleClaim(holder))),
        );
        return writes.map((write, index) => ({
          stored: write.stored,
          winner: winner(write, holders[index] as string),
        }));
      }),
    );
    for (const race of races) {
      expect(race.filter((write) => write.stored)).toHaveLength(1);
      expect(new Set(race.map((write) => write.winner)).size).toBe(1);
    }
  });
}
