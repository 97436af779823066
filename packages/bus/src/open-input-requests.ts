import type { Bus, EventName, GenerationEvent, Subscription } from '@interlude/core';
import { EVENT_NAMES } from '@interlude/core/internal';

/**
 * Events that can follow a pause. A generation's questions are open from its `input_requested`
 * event until any later event of it (its resume, or whatever ends it); the events only a running
 * generation publishes are left out, so the subscription does not carry every model response.
 */
const ONLY_WHILE_RUNNING: ReadonlySet<EventName> = new Set([
  'started',
  'model_responded',
  'tool_started',
  'tool_completed',
]);
const AFTER_A_PAUSE: EventName[] = EVENT_NAMES.filter((name) => !ONLY_WHILE_RUNNING.has(name));

/** Past this many paused generations the oldest are forgotten, so memory stays bounded. */
const MOST_REMEMBERED = 100_000;

/**
 * Counts the input requests waiting on a person, by agent, from the bus's live events: an
 * approximation (there is no durable index of pending questions yet). It starts at zero when
 * `start()` is first called and counts the pauses it sees from then on, so questions asked before
 * it started are not counted until their generation moves, and every process that counts sees
 * the same deployment-wide number (aggregate it with max, not sum).
 */
export function trackOpenInputRequests(bus: Bus, serves: (agent: string) => boolean) {
  const open = new Map<string, { agent: string; requests: number }>();
  let subscribing: Promise<void> | undefined;
  let subscription: Subscription | undefined;
  let stopped = false;

  const onEvent = (event: GenerationEvent) => {
    if (!serves(event.agent)) return;
    open.delete(event.generation_id);
    if (event.event !== 'input_requested') return;
    open.set(event.generation_id, { agent: event.agent, requests: event.data.input_requests.length });
    if (open.size > MOST_REMEMBERED) open.delete(open.keys().next().value as string);
  };

  return {
    /** Subscribes, once; a failed subscription is reported and tried again by the next call. */
    start(onError: (error: unknown) => void): void {
      if (subscribing !== undefined || stopped) return;
      subscribing = bus.subscribe(AFTER_A_PAUSE, onEvent).then(
        (made) => {
          subscription = made;
          if (stopped) void made.unsubscribe().catch(() => undefined);
        },
        (error: unknown) => {
          subscribing = undefined;
          if (!stopped) onError(error);
        },
      );
    },
    /** Open requests by agent name. */
    byAgent(): Map<string, number> {
      const counts = new Map<string, number>();
      for (const { agent, requests } of open.values()) counts.set(agent, (counts.get(agent) ?? 0) + requests);
      return counts;
    },
    /** Unsubscribes; a subscription still being made (its bus connecting) is ended once made. */
    async stop(): Promise<void> {
      stopped = true;
      open.clear();
      const made = subscription;
      subscription = undefined;
      await made?.unsubscribe();
    },
  };
}
