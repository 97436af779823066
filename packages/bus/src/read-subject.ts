import { DeliverPolicy, type JetStreamClient } from '@nats-io/jetstream';
import type { MsgHdrs } from '@nats-io/transport-node';
import type { JetStreamRequests } from './jetstream-requests.js';
import { lastMessageOn } from './stream-message-get.js';

/** One stored message as read: its bytes, headers and subject. */
export interface ReadMessage {
  data: Uint8Array;
  headers: MsgHdrs | undefined;
  subject: string;
}

/** How long a read waits for the replica it reads from to catch up before it starts over. */
const CATCH_UP_MS = 10_000;

/**
 * Every message a stream holds on one filter subject, in stream order, read with an
 * ordered consumer (nats-server 2.9 takes a single filter). The stream leader is asked first for
 * the last message on the filter, and the read goes on until it has it: the consumer may sit on
 * a replica that lags (a node that just came back), and stopping when that replica has nothing
 * pending would miss the newest messages. A filter with nothing on it gives `[]` at once.
 */
export async function readSubject(
  client: JetStreamClient,
  requests: JetStreamRequests,
  stream: string,
  filter: string,
): Promise<ReadMessage[]> {
  const last = await lastMessageOn(requests, stream, filter);
  if (last === undefined) return [];
  const consumer = await client.consumers.get(stream, {
    filter_subjects: filter,
    deliver_policy: DeliverPolicy.All,
  });
  const values: ReadMessage[] = [];
  try {
    const messages = await consumer.consume({ max_messages: 1_000 });
    let caughtUp = false;
    const stalled = setTimeout(() => messages.stop(), CATCH_UP_MS);
    try {
      for await (const message of messages) {
        stalled.refresh();
        values.push({ data: message.data, headers: message.headers, subject: message.subject });
        if (message.seq >= last.seq) {
          caughtUp = true;
          break;
        }
      }
    } finally {
      clearTimeout(stalled);
      messages.stop();
    }
    if (!caughtUp) {
      const error = new Error(`reading ${filter}: the replica did not catch up to sequence ${last.seq}`);
      error.name = 'TimeoutError';
      throw error;
    }
    return values;
  } finally {
    await consumer.delete().catch(() => undefined);
  }
}
