import type { EventFilter, GenerationEvent, Subscription } from '@interlude/core';
import type { EventHandler } from '@interlude/core/internal';
import type { NatsConnection } from '@nats-io/transport-node';
import type { PayloadSealer } from './codec/payload-sealer.js';
import type { EventTrust } from './nats-event-log.js';
import type { NatsNames } from './subjects.js';
import { trustedEvent } from './trusted-event.js';

/** How many recent event ids a subscription remembers to drop a retried publish it saw already. */
const REMEMBERED_IDS = 1_000;

/**
 * Live transitions over core NATS (no JetStream consumer: listening costs the server nothing
 * durable). A publish retried after a lost ack reaches core subscribers twice, so recent ids are
 * remembered and repeats dropped. An event not signed with the bus's keys, sealed so that the bus
 * cannot open it, or whose body is not its subject's, never reaches the handler (it is reported through `trust`). A handler that
 * throws or rejects is reported through `onHandlerError` and does not stop the subscription.
 */
export async function subscribeEvents(
  { connection, names }: { connection: NatsConnection; names: NatsNames },
  filter: EventFilter,
  handler: EventHandler,
  onHandlerError: (error: unknown, event: GenerationEvent) => void,
  trust: EventTrust,
  sealer: PayloadSealer,
): Promise<Subscription> {
  const recentIds = new Set<string>();
  const deliver = (event: GenerationEvent) => {
    if (recentIds.has(event.id)) return;
    recentIds.add(event.id);
    if (recentIds.size > REMEMBERED_IDS) recentIds.delete(recentIds.values().next().value as string);
    Promise.resolve()
      .then(() => handler(event))
      .catch((error: unknown) => onHandlerError(error, event));
  };
  const subscriptions = names.filterSubjects(filter).map((subject) =>
    connection.subscribe(subject, {
      callback: (error, message) => {
        if (error !== null) return;
        const event = trustedEvent(message, names, trust, sealer);
        if (event !== undefined) deliver(event);
      },
    }),
  );
  // Once flushed, the server knows the interest: every transition published from now on arrives.
  await connection.flush();
  return {
    async unsubscribe() {
      for (const subscription of subscriptions) subscription.unsubscribe();
      await connection.flush().catch(() => undefined);
    },
  };
}
