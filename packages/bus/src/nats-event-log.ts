import type { GenerationEvent, TrustError } from '@interlude/core';
import { type CheckpointKeys, epochOf, latestEpochs } from '@interlude/core/internal';
import type { JetStreamClient, JetStreamManager } from '@nats-io/jetstream';
import type { PayloadCodecError } from './codec/payload-codec-error.js';
import type { PayloadSealer } from './codec/payload-sealer.js';
import { openEvent, sealEvent } from './codec/sealed-records.js';
import { eventHeaders, eventRefusal, misplacedEvent } from './event-signature.js';
import { EventsExpiredError } from './events-expired-error.js';
import type { JetStreamRequests } from './jetstream-requests.js';
import { decodeJson, encodeJson } from './json-codec.js';
import { type ReadMessage, readSubject } from './read-subject.js';
import { type RetryOptions, retryTransient } from './retry.js';
import type { NatsNames } from './subjects.js';

/**
 * The bus's keys (undefined: it signs and checks nothing), and where it reports what it dropped:
 * events not signed with them, and events a live subscription could not open (`events()` rejects
 * with those instead).
 */
export interface EventTrust {
  keys(): CheckpointKeys | undefined;
  onRefused(error: TrustError): void;
  onUnreadable(error: PayloadCodecError, subject: string): void;
}

/**
 * Stores one transition in `INTERLUDE_EVENTS` (which also delivers it to core NATS subscribers),
 * its data sealed when the bus has a codec, signed when the bus has keys. The signature covers
 * the bytes as stored, sealed ones included, so a forgery is told without opening anything. The
 * message id derives from the event's deterministic id, so a publish retried after a lost ack, or
 * replayed by a redelivered job, is stored once.
 */
export async function publishEvent(
  { requests, names }: { requests: JetStreamRequests; names: NatsNames },
  event: GenerationEvent,
  retry: RetryOptions,
  keys: CheckpointKeys | undefined,
  sealer: PayloadSealer,
) {
  const subject = names.eventSubject(event);
  const data = encodeJson(sealEvent(sealer, event));
  const headers = eventHeaders(event, data, keys);
  await retryTransient((timeoutMs) => requests.publish(subject, data, headers, timeoutMs), retry);
}

/**
 * A generation's event log, in stream order (`readSubject`: read until it has the leader's last
 * message). An event not signed with the bus's keys is dropped (and reported) before anything
 * else looks at it, and so is one whose body is not its subject's (`misplacedEvent`); the rest are deduplicated by id, in case a publish outlived the stream's
 * duplicate window, and opened: a sealed one the bus cannot open rejects the read
 * (`PayloadCodecError`), since a log missing a real event would be read as a different history.
 * Of a run taken over, only its latest epoch is kept (`latestEpochs`), unless `everyEpoch`. A log
 * whose start the stream's limits removed rejects with `EventsExpiredError`; one removed whole
 * reads as `[]`, like a generation never seen.
 */
export async function readEvents(
  resources: { client: JetStreamClient; manager: JetStreamManager; requests: JetStreamRequests; names: NatsNames },
  generationId: string,
  trust: EventTrust,
  sealer: PayloadSealer,
  everyEpoch = false,
): Promise<GenerationEvent[]> {
  const keys = trust.keys();
  const byId = new Map<string, GenerationEvent>();
  const stored = await readSubject(
    resources.client,
    resources.requests,
    resources.names.eventsStream,
    resources.names.generationSubject(generationId),
  );
  if (await startExpired(resources.manager, resources.names.eventsStream, stored))
    throw new EventsExpiredError(generationId, stored.length);
  for (const message of stored) {
    const refusal = eventRefusal(message.data, message.headers, keys, message.subject);
    if (refusal !== undefined) {
      trust.onRefused(refusal);
      continue;
    }
    const event = decodeJson<GenerationEvent>(message.data);
    const misplaced = misplacedEvent(event, message.subject, resources.names);
    if (misplaced !== undefined) {
      trust.onRefused(misplaced);
      continue;
    }
    if (!byId.has(event.id)) byId.set(event.id, openEvent(sealer, event));
  }
  const ordered = inRunOrder([...byId.values()]);
  return everyEpoch ? ordered : latestEpochs(ordered);
}

/**
 * Whether the stream's limits removed the start of this log: a generation's log begins with its
 * first run's `started`, and limits remove the oldest messages of the stream first, so a log
 * without one, in a stream whose head has been removed, lost its start to them. (A log written
 * without a `started`, as a bus's own tests write them, in a stream that lost nothing, is read as it is.)
 */
async function startExpired(
  manager: JetStreamManager,
  stream: string,
  stored: readonly ReadMessage[],
): Promise<boolean> {
  if (stored.length === 0 || stored.some((message) => message.subject.endsWith('.started'))) return false;
  const info = await manager.streams.info(stream);
  return info.state.first_seq > 1;
}

/**
 * Runs in the order they began, each run's events by epoch, then index. A run pipelines its
 * publishes, so a publish retried through an outage can land after a later one of the same run;
 * its index says where it belongs. Ties keep stream order.
 */
export function inRunOrder(events: GenerationEvent[]): GenerationEvent[] {
  const runOrder = new Map<string, number>();
  for (const event of events) if (!runOrder.has(event.run)) runOrder.set(event.run, runOrder.size);
  return events
    .map((event, position) => ({ event, position }))
    .sort(
      (a, b) =>
        (runOrder.get(a.event.run) as number) - (runOrder.get(b.event.run) as number) ||
        epochOf(a.event) - epochOf(b.event) ||
        a.event.index - b.event.index ||
        a.position - b.position,
    )
    .map(({ event }) => event);
}
