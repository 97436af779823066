import type { CheckpointKeys, GenerationEvent, TrustError } from '@interlude/core';
import { DeliverPolicy, type JetStreamClient } from '@nats-io/jetstream';
import { eventHeaders, eventRefusal } from './event-signature.js';
import type { JetStreamRequests } from './jetstream-requests.js';
import { decodeJson, encodeJson } from './json-codec.js';
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
 * A generation's event log, in stream order, read with an ordered consumer on one filter subject
 * (nats-server 2.9 takes a single filter). Reading stops when nothing is pending, so an unknown
 * id gives `[]` at once. An event not signed with the bus's keys is dropped (and reported)
 * before anything else looks at it; the rest are deduplicated by id, in case a publish outlived
 * the stream's duplicate window.
 */
export async function readEvents(
  client: JetStreamClient,
  generationId: string,
  trust: EventTrust,
): Promise<GenerationEvent[]> {
  const keys = trust.keys();
  const consumer = await client.consumers.get(EVENTS_STREAM, {
    filter_subjects: generationSubject(generationId),
    deliver_policy: DeliverPolicy.All,
  });
  const events: GenerationEvent[] = [];
  try {
    const info = await consumer.info(true);
    if (info.num_pending === 0) return events;
    const seen = new Set<string>();
    const messages = await consumer.consume({ max_messages: Math.min(info.num_pending, 1_000) });
    for await (const message of messages) {
      const refusal = eventRefusal(message.data, message.headers, keys, message.subject);
      const event = refusal === undefined ? decodeJson<GenerationEvent>(message.data) : undefined;
      if (refusal !== undefined) trust.onRefused(refusal);
      else if (event !== undefined && !seen.has(event.id)) {
        seen.add(event.id);
        events.push(event);
      }
      if (message.info.pending === 0) break;
    }
    messages.stop();
    return inRunOrder(events);
  } finally {
    await consumer.delete().catch(() => undefined);
  }
}

/**
 * Runs in the order they began, each run's events by index. A run pipelines its publishes, so a
 * publish retried through an outage can land after a later one of the same run; its index says
 * where it belongs. Ties (a failed run's `failed` and its retry's event) keep stream order.
 */
export function inRunOrder(events: GenerationEvent[]): GenerationEvent[] {
  const runOrder = new Map<string, number>();
  for (const event of events) if (!runOrder.has(event.run)) runOrder.set(event.run, runOrder.size);
  return events
    .map((event, position) => ({ event, position }))
    .sort(
      (a, b) =>
        (runOrder.get(a.event.run) as number) - (runOrder.get(b.event.run) as number) ||
        a.event.index - b.event.index ||
        a.position - b.position,
    )
    .map(({ event }) => event);
}
