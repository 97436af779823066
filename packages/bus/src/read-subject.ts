import { DeliverPolicy, type JetStreamClient } from '@nats-io/jetstream';
import { decodeJson } from './json-codec.js';

/**
 * Every message a stream holds on one filter subject, decoded, in stream order, read with an
 * ordered consumer (nats-server 2.9 takes a single filter). Reading stops when nothing is
 * pending, so a subject with nothing on it gives `[]` at once.
 */
export async function readSubject<T>(client: JetStreamClient, stream: string, filter: string): Promise<T[]> {
  const consumer = await client.consumers.get(stream, {
    filter_subjects: filter,
    deliver_policy: DeliverPolicy.All,
  });
  const values: T[] = [];
  try {
    const info = await consumer.info(true);
    if (info.num_pending === 0) return values;
    const messages = await consumer.consume({ max_messages: Math.min(info.num_pending, 1_000) });
    for await (const message of messages) {
      values.push(decodeJson<T>(message.data));
      if (message.info.pending === 0) break;
    }
    messages.stop();
    return values;
  } finally {
    await consumer.delete().catch(() => undefined);
  }
}
