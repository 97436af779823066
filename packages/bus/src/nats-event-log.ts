import { type CheckpointKeys, epochOf, type GenerationEvent, latestEpochs, type TrustError } from '@interlude/core';
import type { JetStreamClient } from '@nats-io/jetstream';
import { eventHeaders, eventRefusal } from './event-signature.js';
import type { JetStreamRequests } from './jetstream-requests.js';
import { decodeJson, encodeJson } from './json-codec.js';
import { readSubject } from './read-subject.js';
import { type RetryOptions, retryTransient } from './retry.js';
import { EVENTS_STREAM, eventSubject, generationSubject } from './subjects.js';

/** The bus's keys (undefined: it signs and checks nothing), and where it reports what it dropped. */
export interface EventTrust {
  keys(): CheckpointKeys | undefined;
  onRefused(error: TrustError): void;
}

/**
 * Stores one transition in `INTERLUDE_EVENTS` (which also delivers it to core NATS subscribers),
 * signed when the bus has keys. The message id derives from the event's deterministic id, so a
 * publish retried after a lost ack, or replayed by a redelivered job, is stored once.
 */
export async function publishEvent(
  requests: JetStreamRequests,
  event: GenerationEvent,
  retry: RetryOptions,
  keys: CheckpointKeys | undefined,
) {
  const subject = eventSubject(event);
  const data = encodeJson(event);
  const headers = eventHeaders(event, data, keys);
  await retryTransient(() => requests.publish(subject, data, headers), retry);
}

/**
 * A generation's event log, in stream order (`readSubject`: read until it has the leader's last
 * message). An event not signed with the bus's keys is dropped (and reported) before anything
 * else looks at it; the rest are deduplicated by id, in case a publish outlived the stream's
 * duplicate window. Of a run taken over, only its latest epoch is kept (`latestEpochs`), unless
 * `everyEpoch`.
 */
export async function readEvents(
  resources: { client: JetStreamClient; requests: JetStreamRequests },
  generationId: string,
  trust: EventTrust,
  everyEpoch = false,
): Promise<GenerationEvent[]> {
  const keys = trust.keys();
  const byId = new Map<string, GenerationEvent>();
  const stored = await readSubject(
    resources.client,
    resources.requests,
    EVENTS_STREAM,
    generationSubject(generationId),
  );
  for (const message of stored) {
    const refusal = eventRefusal(message.data, message.headers, keys, message.subject);
    if (refusal !== undefined) {
      trust.onRefused(refusal);
      continue;
    }
    const event = decodeJson<GenerationEvent>(message.data);
    if (!byId.has(event.id)) byId.set(event.id, event);
  }
  const ordered = inRunOrder([...byId.values()]);
  return everyEpoch ? ordered : latestEpochs(ordered);
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
