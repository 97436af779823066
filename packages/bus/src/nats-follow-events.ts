import type { EventFilter, GenerationEvent, Subscription } from '@interlude/core';
import { type LoggedEventHandler, matchesFilter, readPosition } from '@interlude/core/internal';
import { DeliverPolicy } from '@nats-io/jetstream';
import type { PayloadSealer } from './codec/payload-sealer.js';
import type { EventTrust } from './nats-event-log.js';
import type { NatsResources } from './nats-setup.js';
import { trustedEvent } from './trusted-event.js';

/** How many recent event ids a follower remembers to drop a publish stored twice (past the duplicate window). */
const REMEMBERED_IDS = 1_000;

/**
 * `bus.follow()` on NATS: an ordered consumer of the events stream (ephemeral, no acks, one per
 * follower) from the stream sequence after `after`, or after the stream's last message now; the
 * position handed out is the stream sequence, the same in every process on the stream. Events are
 * checked as `subscribe` checks them (signature, subject, codec) and handed over one at a time,
 * in stream order. nats-server 2.9 takes one filter subject per consumer: a filter of several
 * subjects reads the whole stream and narrows here.
 */
export async function followEvents(
  { client, manager, names }: NatsResources,
  filter: EventFilter,
  handler: LoggedEventHandler,
  after: string | undefined,
  reports: {
    trust: EventTrust;
    sealer: PayloadSealer;
    onHandlerError: (error: unknown, event: GenerationEvent) => void;
  },
): Promise<Subscription> {
  const start =
    after === undefined ? (await manager.streams.info(names.eventsStream)).state.last_seq + 1 : readPosition(after) + 1;
  const subjects = names.filterSubjects(filter);
  const consumer = await client.consumers.get(names.eventsStream, {
    filter_subjects: subjects.length === 1 ? (subjects[0] as string) : `${names.eventsSubjectRoot}.>`,
    deliver_policy: DeliverPolicy.StartSequence,
    opt_start_seq: start,
  });
  const messages = await consumer.consume();
  const recentIds = new Set<string>();
  const { trust, sealer } = reports;
  const reading = (async () => {
    for await (const message of messages) {
      const event = trustedEvent(message, names, trust, sealer);
      if (event === undefined || !matchesFilter(filter, event) || recentIds.has(event.id)) continue;
      recentIds.add(event.id);
      if (recentIds.size > REMEMBERED_IDS) recentIds.delete(recentIds.values().next().value as string);
      try {
        await handler(event, String(message.seq));
      } catch (error) {
        reports.onHandlerError(error, event);
      }
    }
  })();
  return {
    async unsubscribe() {
      messages.stop();
      await reading.catch(() => undefined);
      await consumer.delete().catch(() => undefined);
    },
  };
}
