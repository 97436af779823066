import { PayloadTooLargeError } from '@interlude/core/internal';
import { JetStreamApiError } from '@nats-io/jetstream';
import { createInbox, type Msg, type MsgHdrs, type NatsConnection } from '@nats-io/transport-node';
import { watchConnectionStatus } from './connection-status.js';

/** The header JetStream deduplicates publishes by. */
export const MSG_ID_HEADER = 'Nats-Msg-Id';
/** The header that makes a publish fail unless the subject's last message has this sequence. */
export const EXPECTED_LAST_SUBJECT_SEQUENCE_HEADER = 'Nats-Expected-Last-Subject-Sequence';

/** What JetStream answers a stored publish with. */
export interface PublishAck {
  stream: string;
  seq: number;
  duplicate?: boolean;
  /**
   * Set when this publish went out more than once (sent again after a reconnect): a `duplicate`
   * may then be its own earlier send, stored before its reply was lost.
   */
  resent?: boolean;
}

/**
 * Request/reply for the bus's hot path: JetStream publishes (events, jobs, checkpoint writes) and
 * job acknowledgements. nats.js's `request()` is general (a timer, a promise race and an `Error`
 * built per request, even a successful one); profiled, that was half the client CPU of a
 * pipelined JetStream publish (36.8 → 18.9 µs a message at 16 in flight, Node 20). Here one
 * wildcard inbox subscription serves every request, a request is a map entry, and one timer
 * sweeps them for timeouts. Replies, statuses and errors mean what they mean in nats.js, and
 * errors carry the names the retry rules know (`TimeoutError`, `NoResponders`,
 * `JetStreamApiError` with the server's code).
 *
 * When the connection drops, a request written just before, or while the client reconnects, may
 * never be answered: nats.js drops what it buffered while disconnected, and a reply sent to the
 * old connection is lost (measured: each waited out the whole timeout). So every request still
 * waiting is sent again once the client is back, in the order they were first made (the event
 * log keeps a run's order), and requests made while it is down wait, unsent, to go out with
 * them. A publish that did land is stored once (the same message id); whichever reply comes
 * first answers the request. A request to a subject the server does not let this user publish
 * to fails at once with nats.js's `PermissionViolationError`.
 */
export interface JetStreamRequests {
  /**
   * A publish JetStream stores (or deduplicates), resolved with its ack. `timeoutMs` (default: the
   * bus's request timeout) is how long this one waits: once it has timed out it is forgotten, and
   * not sent again after a reconnect (a retry sends its own).
   */
  publish(subject: string, data: Uint8Array, headers?: MsgHdrs, timeoutMs?: number): Promise<PublishAck>;
  /** Any request; resolves with the reply (a 503 status rejects as `NoResponders`). `timeoutMs` as for `publish`. */
  request(subject: string, data: Uint8Array, timeoutMs?: number): Promise<Msg>;
}

interface Pending {
  deadline: number;
  timeoutMs: number;
  subject: string;
  data: Uint8Array;
  headers: MsgHdrs | undefined;
  /** How many times it was written to the connection. */
  sends: number;
  resolve(reply: { message: Msg; sends: number }): void;
  reject(error: Error): void;
}

const decoder = new TextDecoder();
/** More than any headers the bus sends (a message id, a trace context). */
const HEADER_ALLOWANCE = 4_096;

export function createJetStreamRequests(connection: NatsConnection, timeoutMs: number): JetStreamRequests {
  const prefix = `${createInbox()}.`;
  /** Requests waiting for their reply, in the order they were made (and are sent again). */
  const pending = new Map<string, Pending>();
  let counter = 0;
  /** Between a dropped connection and the client being back: requests wait here, unsent. */
  let down = false;

  connection.subscribe(`${prefix}*`, {
    callback: (error, message) => {
      if (error !== null) return; // the subscription itself failed (closing): the sweep or close ends requests
      const token = message.subject.slice(prefix.length);
      const request = pending.get(token);
      if (request === undefined) return; // timed out already, or answered once and sent again
      pending.delete(token);
      if (message.data.length === 0 && message.headers?.code === 503) {
        request.reject(named('NoResponders', `no responders for ${request.subject}`));
      } else {
        request.resolve({ message, sends: request.sends });
      }
    },
  });

  const send = (token: string, request: Pending) => {
    request.sends += 1;
    try {
      connection.publish(request.subject, request.data, {
        reply: prefix + token,
        ...(request.headers !== undefined && { headers: request.headers }),
      });
    } catch (error) {
      pending.delete(token);
      request.reject(error as Error);
    }
  };

  // Requests have timeouts of their own (a caller's attempt is shorter than the default), so every
  // one is looked at: the table holds what is in flight, a few hundred at most.
  // While the connection is down nothing times out: every request is sent again once it is back.
  const sweep = setInterval(
    () => {
      if (down) return;
      const now = Date.now();
      for (const [token, request] of pending) {
        if (request.deadline > now) continue;
        pending.delete(token);
        request.reject(named('TimeoutError', `request to ${request.subject} timed out after ${request.timeoutMs} ms`));
      }
    },
    Math.max(10, Math.min(250, timeoutMs / 10)),
  );
  sweep.unref();

  const statuses = watchConnectionStatus(connection, (status) => {
    if (status.type === 'error') {
      // The server refused a publish (this user may not write that subject): the request would
      // only time out and be retried forever, so every request to that subject fails now.
      const refused = status.error as Error & { operation?: string; subject?: string };
      if (refused.name !== 'PermissionViolationError' || refused.operation !== 'publish') return;
      for (const [token, request] of pending) {
        if (request.subject !== refused.subject) continue;
        pending.delete(token);
        request.reject(refused);
      }
    } else if (status.type === 'disconnect') down = true;
    else if (status.type === 'reconnect') {
      down = false;
      const now = Date.now();
      for (const [token, request] of pending) {
        request.deadline = now + request.timeoutMs;
        send(token, request);
      }
    }
  });
  void connection.closed().then(() => {
    clearInterval(sweep);
    statuses.stop();
    const closed = [...pending.values()];
    pending.clear();
    for (const request of closed) request.reject(named('ClosedConnectionError', 'connection closed'));
  });

  const request = (subject: string, data: Uint8Array, headers?: MsgHdrs, ownTimeoutMs = timeoutMs) =>
    new Promise<{ message: Msg; sends: number }>((resolve, reject) => {
      // What the server cannot carry fails at once, and for good: retrying would only fail again.
      // (Headers are measured only near the limit: encoding them costs a little on every publish.)
      const limit = connection.info?.max_payload;
      if (limit !== undefined && data.length + HEADER_ALLOWANCE > limit) {
        const size =
          data.length + (headers === undefined ? 0 : (headers as unknown as { encode(): Uint8Array }).encode().length);
        if (size > limit) {
          reject(new PayloadTooLargeError(`A message on ${subject}`, size, limit));
          return;
        }
      }
      counter += 1;
      const token = counter.toString(36);
      const entry: Pending = {
        deadline: Date.now() + ownTimeoutMs,
        timeoutMs: ownTimeoutMs,
        subject,
        data,
        headers,
        sends: 0,
        resolve,
        reject,
      };
      pending.set(token, entry);
      if (!down) send(token, entry);
    });

  return {
    request: async (subject, data, ownTimeoutMs) => (await request(subject, data, undefined, ownTimeoutMs)).message,
    async publish(subject, data, headers, ownTimeoutMs) {
      const { message: reply, sends } = await request(subject, data, headers, ownTimeoutMs);
      const ack = JSON.parse(decoder.decode(reply.data)) as PublishAck & {
        error?: { code: number; err_code: number; description: string };
      };
      if (ack.error !== undefined) throw new JetStreamApiError(ack.error);
      if (typeof ack.stream !== 'string' || ack.stream === '') throw new Error(`invalid ack from ${subject}`);
      if (sends > 1) ack.resent = true;
      return ack;
    },
  };
}

function named(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}
