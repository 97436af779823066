import type { Bus } from '@interlude/core';
import { expect, it } from 'vitest';
import { sampleCheckpoint, uniqueId } from './fixtures.js';

/** Save and load: the latest checkpoint of a generation, with its params. */
export function checkpointCases(bus: () => Bus): void {
  it('saves and loads the latest checkpoint with its params', async () => {
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
  });

  it('a load right after a save finds it', async () => {
    const generationId = uniqueId('gen');
    await bus().checkpoints.save(generationId, { checkpoint: sampleCheckpoint(generationId), params: {} });
    expect((await bus().checkpoints.load(generationId))?.checkpoint.generation_id).toBe(generationId);
  });
}
