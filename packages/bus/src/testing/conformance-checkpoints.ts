import { type Bus, ResumeError } from '@interlude/core';
import { expect, it } from 'vitest';
import { sampleCheckpoint, uniqueId } from './fixtures.js';

async function claimOutcome(promise: Promise<void>): Promise<'won' | string> {
  try {
    await promise;
    return 'won';
  } catch (error) {
    return ResumeError.isInstance(error) ? error.code : String(error);
  }
}

/** Save, load and revision-checked claims. */
export function checkpointCases(bus: () => Bus): void {
  it('saves and loads the latest checkpoint with its params, unclaimed', async () => {
    const generationId = uniqueId('gen');
    expect(await bus().checkpoints.load(generationId)).toBeUndefined();
    const first = await bus().checkpoints.save(generationId, {
      checkpoint: sampleCheckpoint(generationId, 1),
      params: { ticketId: 42 },
    });
    const second = await bus().checkpoints.save(generationId, {
      checkpoint: sampleCheckpoint(generationId, 2),
      params: { ticketId: 42 },
    });
    expect(second).toBeGreaterThan(first);
    const stored = await bus().checkpoints.load(generationId);
    expect(stored?.checkpoint).toEqual(sampleCheckpoint(generationId, 2));
    expect(stored?.params).toEqual({ ticketId: 42 });
    expect(stored?.revision).toBe(second);
    expect(stored?.claimedBy).toBeUndefined();
  });

  it('keeps the interrupted mark of a resume that failed part-way, until the next save', async () => {
    const generationId = uniqueId('gen');
    const checkpoint = sampleCheckpoint(generationId);
    await bus().checkpoints.save(generationId, { checkpoint, params: {}, interrupted: true });
    expect((await bus().checkpoints.load(generationId))?.interrupted).toBe(true);
    await bus().checkpoints.save(generationId, { checkpoint, params: {} });
    expect((await bus().checkpoints.load(generationId))?.interrupted).toBeUndefined();
  });

  it('lets one claimant claim, refuses another with already_resumed, and lets the first claim again', async () => {
    const generationId = uniqueId('gen');
    const revision = await bus().checkpoints.save(generationId, {
      checkpoint: sampleCheckpoint(generationId),
      params: {},
    });
    await bus().checkpoints.claim(generationId, revision, 'job_a');
    expect((await bus().checkpoints.load(generationId))?.claimedBy).toBe('job_a');
    expect(await claimOutcome(bus().checkpoints.claim(generationId, revision, 'job_b'))).toBe('already_resumed');
    // A redelivered job loads the record again and claims what it finds.
    const reloaded = await bus().checkpoints.load(generationId);
    expect(await claimOutcome(bus().checkpoints.claim(generationId, reloaded?.revision ?? -1, 'job_b'))).toBe(
      'already_resumed',
    );
    expect(await claimOutcome(bus().checkpoints.claim(generationId, reloaded?.revision ?? -1, 'job_a'))).toBe('won');
  });

  it('refuses a claim of a revision a newer save replaced', async () => {
    const generationId = uniqueId('gen');
    const old = await bus().checkpoints.save(generationId, {
      checkpoint: sampleCheckpoint(generationId, 1),
      params: {},
    });
    const latest = await bus().checkpoints.save(generationId, {
      checkpoint: sampleCheckpoint(generationId, 2),
      params: {},
    });
    expect(await claimOutcome(bus().checkpoints.claim(generationId, old, 'job_a'))).toBe('already_resumed');
    expect(await claimOutcome(bus().checkpoints.claim(generationId, latest, 'job_a'))).toBe('won');
  });

  it('refuses a claim of a generation with no checkpoint', async () => {
    const outcome = await claimOutcome(bus().checkpoints.claim(uniqueId('gen'), 1, 'job_a'));
    expect(outcome).not.toBe('won');
    expect(['not_found', 'already_resumed']).toContain(outcome);
  });

  it('of two concurrent claims, exactly one wins', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const generationId = uniqueId('gen');
        const revision = await bus().checkpoints.save(generationId, {
          checkpoint: sampleCheckpoint(generationId),
          params: {},
        });
        return Promise.all([
          claimOutcome(bus().checkpoints.claim(generationId, revision, 'left')),
          claimOutcome(bus().checkpoints.claim(generationId, revision, 'right')),
        ]);
      }),
    );
    for (const pair of outcomes) expect([...pair].sort()).toEqual(['already_resumed', 'won']);
  });
}
