import { natsBus } from '@interlude/bus';
import { sampleClaim, uniqueId } from '@interlude/bus/testing';
import { describe, expect, inject, it } from 'vitest';

describe('claim slots written from two connections', () => {
  it('100 pairs of concurrent writes to one slot over two connections: exactly one stored per pair, and both agree which', async () => {
    const left = natsBus({ servers: inject('natsUrl'), name: 'left' });
    const right = natsBus({ servers: inject('natsUrl'), name: 'right' });
    // A random head start of 0–3 ms per side, so neither connection is always first.
    const jitter = () => new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
    const race = async () => {
      const generationId = uniqueId('gen');
      const [fromLeft, fromRight] = await Promise.all([
        jitter().then(() => left.claims.write(generationId, 0, sampleClaim('holder_left'))),
        jitter().then(() => right.claims.write(generationId, 0, sampleClaim('holder_right'))),
      ]);
      const winnerSeenBy = (write: typeof fromLeft, own: string) => (write.stored ? own : write.record.holder);
      return {
        stored: [fromLeft.stored, fromRight.stored],
        seen: [winnerSeenBy(fromLeft, 'holder_left'), winnerSeenBy(fromRight, 'holder_right')],
        read: (await right.claims.read(generationId, 0))?.holder,
      };
    };
    // Ten pairs at a time: with all 100 in flight one connection's backlog decides every race.
    const pairs: Awaited<ReturnType<typeof race>>[] = [];
    for (let batch = 0; batch < 10; batch += 1) pairs.push(...(await Promise.all(Array.from({ length: 10 }, race))));

    for (const { stored, seen, read } of pairs) {
      expect(stored.filter(Boolean)).toHaveLength(1);
      expect(seen[0]).toBe(seen[1]);
      expect(read).toBe(seen[0]);
    }
    // Both sides won some: the race was real, not one connection always first.
    const leftWins = pairs.filter(({ stored }) => stored[0]).length;
    expect(leftWins).toBeGreaterThan(0);
    expect(leftWins).toBeLessThan(100);
    await Promise.all([left.close(), right.close()]);
  });
});
