import type { EventFilter, LoggedEventHandler, Subscription } from './bus.js';
import { matchesFilter } from './event-filter.js';
import type { GenerationEvent } from './events.js';

/**
 * The memory bus's log in publish order, for `bus.follow()`: the latest `limit` events, each at a
 * position (1, 2, …) that never changes. A follower is handed the kept events after its position,
 * then each new one, in order and each once.
 */
export function createMemoryEventStream(limit: number) {
  const kept: GenerationEvent[] = [];
  /** The position of `kept[0]`. */
  let first = 1;
  const followers = new Set<(event: GenerationEvent, position: number) => void>();
  return {
    append(event: GenerationEvent): void {
      kept.push(event);
      const position = first + kept.length - 1;
      if (kept.length > limit) {
        kept.shift();
        first += 1;
      }
      for (const follower of followers) follower(event, position);
    },
    follow(filter: EventFilter, handler: LoggedEventHandler, after: string | undefined): Subscription {
      const start = after === undefined ? first + kept.length : readPosition(after) + 1;
      // One chain per follower: its handler sees events in log order, a failure of its own skipped.
      let chain = Promise.resolve();
      const hand = (event: GenerationEvent, position: number) => {
        if (!matchesFilter(filter, event)) return;
        const copy = structuredClone(event);
        chain = chain.then(() => handler(copy, String(position))).catch(() => undefined);
      };
      for (let position = Math.max(start, first); position < first + kept.length; position += 1) {
        hand(kept[position - first] as GenerationEvent, position);
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
