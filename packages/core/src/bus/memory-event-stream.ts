import type { EventFilter, LoggedEventHandler, Subscription } from './bus.js';
import { matchesFilter } from './event-filter.js';
import type { GenerationEvent } from './events.js';

/**
 * The memory bus's log in publish order, for `bus.follow()`: the latest `limit` events, each at a
 * position (1, 2, …) that never changes. A follower is handed the kept events after its position,
 * then each new one, in order and each once.
 */
export function createMemoryEventStream(limit: number) {
  // A queue with a moving head: shifting the oldest off an array of `limit` events costs `limit`
  // moves on every publish; the head moves instead, and the dropped start is cut off now and then.
  const kept: GenerationEvent[] = [];
  let head = 0;
  /** The position of `kept[head]`. */
  let first = 1;
  const followers = new Set<(event: GenerationEvent, position: number) => void>();
  return {
    append(event: GenerationEvent): void {
      kept.push(event);
      const position = first + kept.length - head - 1;
      if (kept.length - head > limit) {
        head += 1;
        first += 1;
        if (head >= limit) {
          kept.splice(0, head);
          head = 0;
        }
      }
      for (const follower of followers) follower(event, position);
    },
    follow(filter: EventFilter, handler: LoggedEventHandler, after: string | undefined): Subscription {
      const end = first + kept.length - head;
      const start = after === undefined ? end : readPosition(after) + 1;
      // One chain per follower: its handler sees events in log order, a failure of its own skipped.
      let chain = Promise.resolve();
      const hand = (event: GenerationEvent, position: number) => {
        if (!matchesFilter(filter, event)) return;
        const copy = structuredClone(event);
        chain = chain.then(() => handler(copy, String(position))).catch(() => undefined);
      };
      for (let position = Math.max(start, first); position < end; position += 1) {
        hand(kept[head + position - first] as GenerationEvent, position);
      }
      followers.add(hand);
      return {
        async unsubscribe() {
          followers.delete(hand);
        },
      };
    },
    close(): void {
      followers.clear();
    },
  };
}

/** A position as `follow` hands them out: a positive integer, written in decimal. */
export function readPosition(position: string): number {
  if (!/^[1-9][0-9]{0,15}$/.test(position)) {
    throw new TypeError(`An event log position is a positive integer, got ${JSON.stringify(position)}`);
  }
  return Number(position);
}
