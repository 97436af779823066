import { jetstreamManager } from '@nats-io/jetstream';
import { connect, headers, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createJetStreamRequests, EXPECTED_LAST_SUBJECT_SEQUENCE_HEADER, MSG_ID_HEADER } from './jetstream-requests.js';
import { isTransientNatsError } from './retry.js';
import { uniqueId } from './testing/index.js';

const data = new TextEncoder().encode('{}');
let connection: NatsConnection;
const stream = uniqueId('REQUESTS');
const subject = `${stream}.subject`;

beforeAll(async () => {
  connection = await connect({ servers: inject('natsUrl'), noAsyncTraces: true });
  await (await jetstreamManager(connection)).streams.add({ name: stream, subjects: [`${stream}.>`] });
});

afterAll(async () => {
  await (await jetstreamManager(connection)).streams.delete(stream);
  await connection.close();
});

const withId = (id: string) => {
  const set = headers();
  set.set(MSG_ID_HEADER, id);
  return set;
};

describe('the bus request path to JetStream', () => {
  it('stores a publish and acknowledges it; the same message id again is a duplicate', async () => {
    const requests = createJetStreamRequests(connection, 2_000);
    const first = await requests.publish(subject, data, withId('one'));
    const again = await requests.publish(subject, data, withId('one'));
    expect(first).toMatchObject({ stream, seq: expect.any(Number) });
    expect(again).toMatchObject({ stream, seq: first.seq, duplicate: true });
  });

  it('refuses an update against the wrong last sequence with the server error code (10071), not retried', async () => {
    const requests = createJetStreamRequests(connection, 2_000);
    const key = `${stream}.key`;
    const stored = await requests.publish(key, data);
    const stale = headers();
    stale.set(EXPECTED_LAST_SUBJECT_SEQUENCE_HEADER, String(stored.seq - 1));
    const error = await requests.publish(key, data, stale).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'JetStreamApiError', code: 10071 });
    expect(isTransientNatsError(error)).toBe(false);
  });

  it('names a subject no stream listens on NoResponders, and an unanswered request TimeoutError: both transient', async () => {
    const requests = createJetStreamRequests(connection, 300);
    const nobody = await requests.publish(uniqueId('nobody'), data).catch((caught: unknown) => caught);
    expect(nobody).toMatchObject({ name: 'NoResponders' });
    const silent = uniqueId('silent');
    const subscription = connection.subscribe(silent, { callback: () => undefined });
    await connection.flush();
    const started = Date.now();
    const timedOut = await requests.request(silent, data).catch((caught: unknown) => caught);
    expect(timedOut).toMatchObject({ name: 'TimeoutError' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect([nobody, timedOut].every(isTransientNatsError)).toBe(true);
    subscription.unsubscribe();
  });

  it('forgets a request once its own timeout passes: after a reconnect only requests still waiting are sent again', async () => {
    // The default timeout is long; one request is given up on after 200 ms, as a caller's attempt is.
    const reconnecting = await connect({ servers: inject('natsUrl'), noAsyncTraces: true, reconnectTimeWait: 50 });
    const requests = createJetStreamRequests(reconnecting, 60_000);
    const silent = uniqueId('silent');
    const listener = await connect({ servers: inject('natsUrl') });
    const received: string[] = [];
    listener.subscribe(silent, {
      callback: (_, message) => {
        received.push(message.string());
      },
    });
    await listener.flush();
    const abandoned = await requests
      .request(silent, new TextEncoder().encode('abandoned'), 200)
      .catch((caught: unknown) => caught);
    expect(abandoned).toMatchObject({ name: 'TimeoutError' });
    const waiting = requests.request(silent, new TextEncoder().encode('waiting')).catch(() => undefined);
    await expect.poll(() => received.includes('waiting')).toBe(true);

    await reconnecting.reconnect();
    // The request still waiting is sent again once the client is back; the marker goes after it.
    await expect.poll(() => received.filter((body) => body === 'waiting').length).toBe(2);
    reconnecting.publish(silent, 'marker');
    await expect.poll(() => received.includes('marker')).toBe(true);
    expect(received.filter((body) => body === 'abandoned')).toHaveLength(1);
    await reconnecting.close();
    await waiting;
    await listener.close();
  });
});
