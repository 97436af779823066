import { Scrubber } from './scrub.js';

/**
 * Secret answers given to generations this process is running, by generation id. A secret is
 * never stored, so a later resume in this process still scrubs it for the rest of the generation;
 * the entry goes when the generation ends. (A resume in another process never saw the secret, and
 * nothing it can send holds it.)
 */
const byGeneration = new Map<string, Scrubber>();

export function scrubberFor(generationId: string): Scrubber {
  let scrubber = byGeneration.get(generationId);
  if (scrubber === undefined) {
    scrubber = new Scrubber();
    byGeneration.set(generationId, scrubber);
  }
  return scrubber;
}

/** The secrets this process holds for a generation, without making an entry for one it never saw. */
export function existingScrubber(generationId: string): Scrubber | undefined {
  return byGeneration.get(generationId);
}

/** Forgets a finished generation's secrets; an empty scrubber is not kept either. */
export function releaseScrubber(generationId: string, finished: boolean): void {
  const scrubber = byGeneration.get(generationId);
  if (scrubber !== undefined && (finished || scrubber.isEmpty)) byGeneration.delete(generationId);
}
