import { natsBus } from '@interlude/bus';
import { sampleCheckpoint, uniqueId } from '@interlude/bus/testing';
import { ResumeError } from '@interlude/core';
import { describe, expect, inject, it } from 'vitest';

describe('claiming a checkpoint from two processes', () => {
  it('100 concurrent pairs of claims over two connections: exactly one winner per pair', async () => {
    const left = natsBus({ servers: inject('natsUrl'), name: 'left' });
    const right = natsBus({ servers: inject('natsUrl'), name: 'right' });
    const outcome = (claim: Promise<void>) =>
      claim.then(
        () => 'won',
        (error: unknown) => (ResumeError.isInstance(error) ? error.code : String(error)),
      );
    const pairs = await Promise.all(
      Array.from({ length: 100 }, async () => {
        const generationId = uniqueId('gen');
        const revision = await left.checkpoints.save(generationId, {
          checkpoint: sampleCheckpoint(generationId),
          params: { ticketId: 42 },
        });
        const results = await Promise.all([
          outcome(left.checkpoints.claim(generationId, revision, 'job_left')),
          outcome(right.checkpoints.claim(generationId, revision, 'job_right')),
        ]);
        const stored = await right.checkpoints.load(generationId);
        return { results, claimedBy: stored?.claimedBy };
      }),
    );
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
