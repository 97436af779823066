import type { Bus, GenerationEvent, Subscription } from '@interlude/core';

/** How many recent events a gateway keeps for clients that reconnect with `Last-Event-ID`. */
export const DEFAULT_REPLAY_EVENTS = 1_000;

type Listener = (event: GenerationEvent) => void;

/**
 * One bus subscription for every event stream the gateway serves, and the latest events it saw,
 * so a client that reconnects with `Last-Event-ID` is sent what it missed (within the window; an
 * id older than that, or from another gateway, resumes live only). The events are the bus's,
 * verified and scrubbed by it: an answer token is never among them.
 */
export function createEventReplay(bus: Bus, size: number = DEFAULT_REPLAY_EVENTS) {
  const recent: GenerationEvent[] = [];
  const listeners = new Set<Listener>();
  let subscription: Promise<Subscription> | undefined;
  return {
    /** Subscribes to the bus; resolves once every event published from now on is seen. */
    start(): Promise<Subscription> {
      subscription ??= bus.subscribe({}, (event) => {
        recent.push(event);
        if (recent.length > size) recent.shift();
        for (const listener of listeners) listener(event);
      });
      return subscription;
    },
    /**
     * Listens from now on, and returns the kept events after `lastEventId` (none without one, or
     * when it is no longer kept) — taken at the same moment, so nothing is missed or sent twice.
     */
    follow(lastEventId: string | undefined, listener: Listener): { missed: GenerationEvent[]; stop(): void } {
      listeners.add(listener);
      const at = lastEventId === undefined ? -1 : recent.findLastIndex((event) => event.id === lastEventId);
      return { missed: at < 0 ? [] : recent.slice(at + 1), stop: () => listeners.delete(listener) };
    },
    async close(): Promise<void> {
      listeners.clear();
      await (await subscription)?.unsubscribe();
    },
  };
}
