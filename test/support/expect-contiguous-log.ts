import type { Bus, GenerationEvent } from '@interlude/core';
import { epochOf } from '@interlude/core/internal';
import { expect } from 'vitest';
import { rawStoredEvents } from './bus-raw-log.js';

/**
 * Checks a finished generation's log after faults under it (a killed server, killed or stalled
 * workers): the stream holds each event once; the log the bus reads back is every stored event
 * but those of superseded epochs (what a holder published before another took its run over), in
 * run order, from `started` to `completed`, each run's latest epoch numbered without a gap.
 * Returns the log for the caller's own checks.
 */
export async function expectContiguousLog(
  bus: Pick<Bus, 'events'>,
  servers: string | string[],
  generationId: string,
): Promise<GenerationEvent[]> {
  const log = await bus.events(generationId);
  const raw = (await rawStoredEvents(servers, generationId)).map((text) => JSON.parse(text) as GenerationEvent);
  const rawIds = raw.map((event) => event.id);
  expect(new Set(rawIds).size).toBe(rawIds.length);
  const inLog = new Set(log.map((event) => event.id));
  // In run order, as `events()` reads a log: runs as they began in the stream, each by epoch, then
  // index. Not stream order: a publish retried through an outage (a killed leader, a cut) may be
  // stored after a later one of its run.
  const runStart = new Map<string, number>();
  for (const [position, event] of raw.entries()) if (!runStart.has(event.run)) runStart.set(event.run, position);
  const kept = [...raw.entries()].filter(([, event]) => inLog.has(event.id));
  kept.sort(
    ([leftPosition, left], [rightPosition, right]) =>
      (runStart.get(left.run) as number) - (runStart.get(right.run) as number) ||
      epochOf(left) - epochOf(right) ||
      left.index - right.index ||
      leftPosition - rightPosition,
  );
  expect(log.map((event) => event.id)).toEqual(kept.map(([, event]) => event.id));
  const latest = new Map<string, number>();
  for (const event of raw) latest.set(event.run, Math.max(latest.get(event.run) ?? 1, epochOf(event)));
  for (const left of raw.filter((event) => !inLog.has(event.id))) {
    expect(epochOf(left), `${left.id} left out of the log`).toBeLessThan(latest.get(left.run) ?? 1);
  }
  expect(log[0]?.event).toBe('started');
  expect(log.at(-1)?.event).toBe('completed');
  for (const run of new Set(log.map((event) => event.run))) {
    const indexes = log
      .filter((event) => event.run === run && event.event !== 'failed' && epochOf(event) === latest.get(run))
      .map((event) => event.index);
    expect(indexes).toEqual(indexes.map((_, position) => position));
  }
  return log;
}
