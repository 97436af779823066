import { randomUUID } from 'node:crypto';
import type { Bus } from '../bus/bus.js';
import { EVENT_VERSION, type EventData, type EventName, type GenerationEvent } from '../bus/events.js';
import type { Scrubber } from '../secrets/scrub.js';
import { scrubEventData } from '../secrets/scrub-event-data.js';

export interface EventPublisher {
  /**
   * Publishes an event now, in emit order, without waiting for earlier ones to be acknowledged.
   * `before` (storing the checkpoint a pause announces) runs first, and events emitted after it
   * wait for it.
   */
  emit<Name extends EventName>(name: Name, data: EventData[Name], before?: () => Promise<void>): void;
  /** Waits until everything emitted so far is stored; throws if a publish failed. */
  flush(): Promise<void>;
}

/**
 * Publishes one run's transitions. Event ids are `<generation>:<run>:<index>`: a run replayed
 * after a crash emits the same ids in the same order, so the log stores each once. Publishes are
 * pipelined (one connection keeps their order, and each carries its index); the run waits for the
 * acknowledgements only where it matters — before a tool runs and at its stop (`flush`). Every
 * payload is scrubbed first (`scrubEventData`).
 */
export function createEventPublisher(
  bus: Bus,
  identity: { agent: string; action: string; generationId: string; run: string },
  scrubber: Scrubber,
): EventPublisher {
  let index = 0;
  let inFlight: Promise<void>[] = [];
  // Settles once every `before` so far has run and its event was sent; later events queue behind it.
  let gate: Promise<void> | undefined;
  let failure: unknown;
  const send = async (event: GenerationEvent, before?: () => Promise<void>) => {
    if (failure !== undefined) return;
    try {
      await before?.();
      await bus.publish(event);
    } catch (error) {
      failure ??= error;
    }
  };
  return {
    emit(name, data, before) {
      // A failed run may be run again from the same checkpoint, and fail again: each `failed` gets
      // an id of its own, so neither the retry's event at that index nor a later failure is taken
      // for a duplicate of it.
      const id = `${identity.generationId}:${identity.run}:${index}${name === 'failed' ? `:failed:${randomUUID().slice(0, 8)}` : ''}`;
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
        data: scrubEventData(scrubber, name, data),
      } as GenerationEvent;
      index += 1;
      let sent: Promise<void>;
      if (before !== undefined || gate !== undefined) {
        const waitFor = gate ?? Promise.resolve();
        sent = waitFor.then(() => send(event, before));
        gate = sent;
      } else {
        sent = send(event);
      }
      inFlight.push(sent);
    },
    async flush() {
      const pending = inFlight;
      const settledGate = gate;
      inFlight = [];
      await Promise.all(pending);
      if (gate === settledGate) gate = undefined;
      if (failure !== undefined) throw failure;
    },
  };
}
