import { connect, type NatsConnection } from '@nats-io/transport-node';

/** Every message a NATS server carried while the tap listened: subjects, headers and payloads. */
export interface WireTap {
  /** Messages seen so far. */
  readonly count: number;
  /** Bytes of payload seen so far. */
  readonly bytes: number;
  /** Whether `needle` appeared in any subject, header or payload. */
  saw(needle: string): boolean;
  /** Resolves once the server has delivered everything it sent the tap so far. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A plain NATS client subscribed to `>`: it receives every message published on the server
 * (events, KV checkpoint writes, jobs, JetStream API requests and replies), so a test can prove
 * a secret crossed the wire in none of them. It reconnects forever, for tests that restart the server.
 */
export async function startWireTap(servers: string): Promise<WireTap> {
  const connection: NatsConnection = await connect({
    servers,
    name: 'reliability-wire-tap',
    maxReconnectAttempts: -1,
    reconnectTimeWait: 100,
  });
  const seen: string[] = [];
  let count = 0;
  let bytes = 0;
  connection.subscribe('>', {
    callback: (error, message) => {
      if (error !== null) return;
      count += 1;
      bytes += message.data.length;
      const headers = message.headers ? [...message.headers].map(([key, values]) => `${key}:${values.join(',')}`) : [];
      seen.push(`${message.subject} ${headers.join(' ')} ${Buffer.from(message.data).toString('utf8')}`);
    },
  });
  await connection.flush();
  return {
    get count() {
      return count;
    },
    get bytes() {
      return bytes;
    },
    saw: (needle) => seen.some((text) => text.includes(needle)),
    flush: () => connection.flush(),
    async close() {
      await connection.drain().catch(() => connection.close());
    },
  };
}
