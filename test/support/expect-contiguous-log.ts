import type { Bus, GenerationEvent } from '@interlude/core';
import { expect } from 'vitest';
import { rawStoredEventIds } from './bus-raw-log.js';

/**
 * Checks a finished generation's log after its server was killed under it: the stream holds each
 * event once, exactly as the bus reads it back, from `started` to `completed`, each run numbered
 * without a gap. Returns the log for the caller's own checks.
 */
export async function expectContiguousLog(
  bus: Pick<Bus, 'events'>,
  servers: string,
  generationId: string,
): Promise<GenerationEvent[]> {
  const log = await bus.events(generationId);
  const raw = await rawStoredEventIds(servers, generationId);
  expect(raw).toEqual(log.map((event) => event.id));
  expect(new Set(raw).size).toBe(raw.length);
  expect(log[0]?.event).toBe('started');
  expect(log.at(-1)?.event).toBe('completed');
  for (const run of new Set(log.map((event) => event.run))) {
    const indexes = log.filter((event) => event.run === run).map((event) => event.index);
    expect(indexes).toEqual(indexes.map((_, position) => position));
  }
  return log;
}
