import { randomUUID } from 'node:crypto';
import { type JetStreamClient, jetstream, jetstreamManager, StorageType } from '@nats-io/jetstream';
import { connect, type NatsConnection, nanos } from '@nats-io/transport-node';
import { now } from './statistics.js';

const STREAM = 'BENCH_PUBLISH_RATE';
const SUBJECT = 'bench.publish.rate';

/** Measures JetStream's own limit on this machine: publish-with-ack, pipelined, on one connection. */
export interface PublishRateProbe {
  /** Publishes `messages` with `window` acks outstanding; resolves with acknowledged messages per second. */
  sample(messages: number, window: number): Promise<number>;
  close(): Promise<void>;
}

/**
 * The reference the throughput goal is stated against: a file-backed stream like Interlude's,
 * a message id on every publish (as Interlude dedupes), an event-sized payload, and as many
 * acks outstanding as `window`, so nothing but JetStream's storing and acking limits the rate.
 */
export async function openPublishRateProbe(servers: string, payloadBytes: number): Promise<PublishRateProbe> {
  const connection: NatsConnection = await connect({ servers, name: 'bench-publish-rate' });
  const manager = await jetstreamManager(connection);
  await manager.streams.add({
    name: STREAM,
    subjects: [SUBJECT],
    storage: StorageType.File,
    duplicate_window: nanos(60 * 60 * 1_000),
  });
  const client: JetStreamClient = jetstream(connection);
  const payload = new Uint8Array(payloadBytes).fill(120);
  return {
    async sample(messages, window) {
      const prefix = randomUUID();
      const inFlight = new Set<Promise<unknown>>();
      const started = now();
      for (let index = 0; index < messages; index += 1) {
        if (inFlight.size >= window) await Promise.race(inFlight);
        const ack: Promise<unknown> = client.publish(SUBJECT, payload, { msgID: `${prefix}-${index}` }).then(() => {
          inFlight.delete(ack);
        });
        inFlight.add(ack);
      }
      await Promise.all(inFlight);
      const seconds = (now() - started) / 1_000;
      await manager.streams.purge(STREAM);
      return messages / seconds;
    },
    async close() {
      await manager.streams.delete(STREAM);
      await connection.drain();
    },
  };
}
