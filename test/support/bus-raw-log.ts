import { DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';

/**
 * Every stored message of one generation in `INTERLUDE_EVENTS`, read with a plain client (not
 * the bus package, which deduplicates on read): the ids as the server holds them, repeats
 * included, so a test can prove each event was stored exactly once.
 */
export async function rawStoredEventIds(servers: string | string[], generationId: string): Promise<string[]> {
  const payloads = await rawStoredEvents(servers, generationId);
  return payloads.map((payload) => (JSON.parse(payload) as { id: string }).id);
}

/** The stored payloads of one generation, as the bytes' text, in stream order. */
export async function rawStoredEvents(servers: string | string[], generationId: string): Promise<string[]> {
  const connection = await connect({ servers });
  try {
    return await readPayloads(connection, generationId);
  } finally {
    await connection.close();
  }
}

async function readPayloads(connection: NatsConnection, generationId: string): Promise<string[]> {
  const client = jetstream(connection);
  const subject = `interlude.gen.*.*.${generationId}.*`;
  // The stream leader's last message on the subject: a consumer on a lagging replica reads until it has it.
  const last = await (await jetstreamManager(connection)).streams
    .getMessage('INTERLUDE_EVENTS', { last_by_subj: subject })
    .catch(() => undefined);
  const payloads: string[] = [];
  if (last === undefined || last === null) return payloads;
  const consumer = await client.consumers.get('INTERLUDE_EVENTS', {
    filter_subjects: subject,
    deliver_policy: DeliverPolicy.All,
  });
  const messages = await consumer.consume();
  for await (const message of messages) {
    payloads.push(message.string());
    if (message.seq >= last.seq) break;
  }
  messages.stop();
  await consumer.delete().catch(() => undefined);
  return payloads;
}

/**
 * The last message a stream stores on a subject, as its bytes' text, read with a plain client
 * (a direct read that consumes nothing, so a work-queue job stays for its worker): what anyone
 * with read access to the server's store would see. Undefined when the subject holds nothing.
 */
export async function rawLastStored(servers: string, stream: string, subject: string): Promise<string | undefined> {
  const connection = await connect({ servers });
  try {
    const manager = await jetstreamManager(connection);
    const stored = await manager.streams.getMessage(stream, { last_by_subj: subject });
    return stored === null ? undefined : stored.string();
  } finally {
    await connection.close();
  }
}

/** A TCP port nobody listens on right now, for a private nats-server that must restart on it. */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
