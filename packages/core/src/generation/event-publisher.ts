import type { Bus } from '../bus/bus.js';
import { EVENT_VERSION, type EventData, type EventName, type GenerationEvent } from '../bus/events.js';
import type { Scrubber } from '../secrets/scrub.js';

export interface EventPublisher {
  /** Queues an event; events are published one after another in the order they were emitted. */
  emit<Name extends EventName>(name: Name, data: EventData[Name], before?: () => Promise<void>): void;
  /** Waits until everything emitted so far is stored; throws if a publish failed. */
  flush(): Promise<void>;
}

/**
 * Publishes one run's transitions in order. Event ids are `<generation>:<run>:<index>`: a run
 * replayed after a crash emits the same ids in the same order, so the log stores each once.
 * Every payload goes through the scrubber first.
 */
export function createEventPublisher(
  bus: Bus,
  identity: { agent: string; action: string; generationId: string; run: string },
  scrubber: Scrubber,
): EventPublisher {
  let index = 0;
  let chain: Promise<void> = Promise.resolve();
  let failure: unknown;
  return {
    emit(name, data, before) {
      // A failed run may be run again from the same checkpoint; its `failed` event gets an id of
      // its own so the retry's event at the same index is not taken for a duplicate of it.
      const id = `${identity.generationId}:${identity.run}:${index}${name === 'failed' ? ':failed' : ''}`;
      const event = {
        version: EVENT_VERSION,
        id,
        event: name,
        agent: identity.agent,
        action: identity.action,
        generation_id: identity.generationId,
        run: identity.run,
        index,
        time: new Date().toISOString(),
        data: scrubber.value(data),
      } as GenerationEvent;
      index += 1;
      chain = chain.then(async () => {
        if (failure !== undefined) return;
        try {
          await before?.();
          await bus.publish(event);
        } catch (error) {
          failure = error;
        }
      });
    },
    async flush() {
      await chain;
      if (failure !== undefined) throw failure;
    },
  };
}
