import { natsBus } from '@interlude/bus';
import { sampleCheckpoint, uniqueId } from '@interlude/bus/testing';
import { ResumeError } from '@interlude/core';
import { describe, expect, inject, it } from 'vitest';

describe('claiming a checkpoint from two processes', () => {
  it('100 pairs of concurrent claims over two connections: exactly one winner per pair', async () => {
    const left = natsBus({ servers: inject('natsUrl'), name: 'left' });
    const right = natsBus({ servers: inject('natsUrl'), name: 'right' });
    // A random head start of 0–3 ms per side, so neither connection is always first.
    const jitter = () => new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
    const outcome = (claim: () => Promise<void>) =>
      jitter()
        .then(claim)
        .then(
          () => 'won',
          (error: unknown) => (ResumeError.isInstance(error) ? error.code : String(error)),
        );
    const race = async () => {
      const generationId = uniqueId('gen');
      const revision = await left.checkpoints.save(generationId, {
        checkpoint: sampleCheckpoint(generationId),
        params: { ticketId: 42 },
      });
      const results = await Promise.all([
        outcome(() => left.checkpoints.claim(generationId, revision, 'job_left')),
        outcome(() => right.checkpoints.claim(generationId, revision, 'job_right')),
      ]);
      const stored = await right.checkpoints.load(generationId);
      return { results, claimedBy: stored?.claimedBy };
    };
    // Ten pairs at a time: with all 100 in flight one connection's backlog decides every race.
    const pairs: Awaited<ReturnType<typeof race>>[] = [];
    for (let batch = 0; batch < 10; batch += 1) pairs.push(...(await Promise.all(Array.from({ length: 10 }, race))));

    for (const { results, claimedBy } of pairs) {
      expect([...results].sort()).toEqual(['already_resumed', 'won']);
      expect(claimedBy).toBe(results[0] === 'won' ? 'job_left' : 'job_right');
    }
    // Both sides won some: the race was real, not one connection always first.
    const leftWins = pairs.filter(({ results }) => results[0] === 'won').length;
    expect(leftWins).toBeGreaterThan(0);
    expect(leftWins).toBeLessThan(100);
    await Promise.all([left.close(), right.close()]);
  });
});
