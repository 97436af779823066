import { randomUUID } from 'node:crypto';
import type { Bus } from '../bus/bus.js';
import { EVENT_VERSION, type EventData, type EventName, type GenerationEvent } from '../bus/events.js';
import { FencedError } from '../errors/fenced-error.js';
import { PayloadTooLargeError } from '../errors/payload-too-large-error.js';
import type { Scrubber } from '../secrets/scrub.js';
import { scrubEventData } from '../secrets/scrub-event-data.js';

export interface EventPublisher {
  /**
   * Publishes an event, in emit order, without waiting for earlier ones to be acknowledged: handed
   * to the bus with the others emitted in the same step, at the next `flush` or once the tick's
   * work is done.
   * `before` (a step written to the claim log, the checkpoint a pause announces) runs once every
   * earlier event is stored, and events emitted after it wait for it.
   */
  emit<Name extends EventName>(name: Name, data: EventData[Name], before?: () => Promise<void>): void;
  /** Waits until everything emitted so far is stored; throws if a publish failed. */
  flush(): Promise<void>;
}

/** An event's place in the order of publishes: after `previous` was handed to the bus; `done` hands on. */
interface Turn {
  previous: Promise<void>;
  done: () => void;
}

/** Which run of which generation, and which holder of it, the events belong to. */
export interface PublisherIdentity {
  agent: string;
  action: string;
  generationId: string;
  run: string;
  epoch: number;
}

/**
 * An event's id: `<generation>:<run>:<index>`, and `:e<epoch>` past a run's first holder. A run
 * replayed by the same holder (a retried publish) reuses its ids and is stored once; a holder
 * that takes the run over writes its own, so what it logs never mixes with its predecessor's.
 */
export function eventIdOf(identity: Omit<PublisherIdentity, 'agent' | 'action'>, index: number): string {
  const base = `${identity.generationId}:${identity.run}:${index}`;
  return identity.epoch === 1 ? base : `${base}:e${identity.epoch}`;
}

/**
 * Publishes one run's transitions (ids from `eventIdOf`). Publishes are pipelined (one connection
 * keeps their order, and each carries its index); the run waits for the acknowledgements only
 * where it matters: before a tool runs, before a step that must follow everything logged so far,
 * and at its stop (`flush`). Every payload is scrubbed first (`scrubEventData`).
 *
 * Once a publish or a `before` fails, nothing more goes out: a run fenced out by a takeover
 * publishes nothing after it found out. The one exception is a payload too large for the bus:
 * the run still announces its `failed`, which is small.
 *
 * `guard` (a job's lease check, `checkLease`) runs before each publish, after its `before`: a run
 * whose lease lapsed publishes nothing from then on. Events emitted while a check is in flight
 * share it, and publishes still go out in emit order, each behind the one before it.
 */
export function createEventPublisher(
  bus: Bus,
  identity: PublisherIdentity,
  scrubber: Scrubber,
  guard?: () => Promise<void>,
): EventPublisher {
  let index = 0;
  let inFlight: Promise<void>[] = [];
  // Settles once every `before` so far has run and its event was sent; later events queue behind it.
  let gate: Promise<void> | undefined;
  let failure: unknown;
  // With a guard: settles once the latest event's publish was handed to the bus (or dropped).
  let issued: Promise<void> = Promise.resolve();
  let checking: Promise<void> | undefined;
  const check = () => {
    checking ??= (guard as () => Promise<void>)().finally(() => {
      checking = undefined;
    });
    return checking;
  };
  const blocked = (event: GenerationEvent) =>
    failure !== undefined && !(event.event === 'failed' && PayloadTooLargeError.isInstance(failure));
  const send = async (event: GenerationEvent, before: (() => Promise<void>) | undefined, turn?: Turn) => {
    if (blocked(event)) return turn?.done();
    try {
      // No await when there is nothing to wait for: events emitted together reach the bus in the
      // same tick, so a client that writes once a tick (nats.js) sends them in one socket write.
      if (before !== undefined) await before();
      if (turn !== undefined) {
        await turn.previous;
        await check();
        if (blocked(event)) return;
        const published = bus.publish(event);
        turn.done();
        await published;
      } else {
        await bus.publish(event);
      }
    } catch (error) {
      if (failure === undefined || FencedError.isInstance(error)) failure = error;
    } finally {
      turn?.done();
    }
  };
  // Emitted events wait here until the run waits for them (`flush`) or the tick's work is done,
  // then go to the bus together: a step's events (a response and the next call's intent, a
  // result and the next intent) reach the socket in one write instead of one each.
  let queued: (() => void)[] = [];
  let scheduled = false;
  const handOver = () => {
    scheduled = false;
    const handing = queued;
    queued = [];
    for (const hand of handing) hand();
  };
  const nextTurn = (): Turn | undefined => {
    if (guard === undefined) return undefined;
    const previous = issued;
    let done!: () => void;
    issued = new Promise<void>((resolve) => {
      done = resolve;
    });
    return { previous, done };
  };
  return {
    emit(name, data, before) {
      // A failed run may be run again from the same checkpoint, and fail again: each `failed` gets
      // an id of its own, so no later failure is taken for a duplicate of it.
      const id = `${eventIdOf(identity, index)}${name === 'failed' ? `:failed:${randomUUID().slice(0, 8)}` : ''}`;
      const event = {
        version: EVENT_VERSION,
        id,
        event: name,
        agent: identity.agent,
        action: identity.action,
        generation_id: identity.generationId,
        run: identity.run,
        index,
        ...(identity.epoch !== 1 && { epoch: identity.epoch }),
        time: new Date().toISOString(),
        data: scrubEventData(scrubber, name, data),
      } as GenerationEvent;
      index += 1;
      queued.push(() => {
        const turn = nextTurn();
        let sent: Promise<void>;
        if (before !== undefined) {
          // Everything emitted so far is stored before the step it leads to.
          const earlier = [...inFlight];
          sent = Promise.all(earlier).then(() => send(event, before, turn));
          gate = sent;
        } else if (gate !== undefined) {
          sent = gate.then(() => send(event, undefined, turn));
          gate = sent;
        } else {
          sent = send(event, undefined, turn);
        }
        inFlight.push(sent);
      });
      if (!scheduled) {
        scheduled = true;
        setImmediate(handOver);
      }
    },
    async flush() {
      handOver();
      const pending = inFlight;
      const settledGate = gate;
      inFlight = [];
      await Promise.all(pending);
      if (gate === settledGate) gate = undefined;
      if (failure !== undefined) throw failure;
    },
  };
}
