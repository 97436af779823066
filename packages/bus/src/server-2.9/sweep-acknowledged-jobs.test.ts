import { AckPolicy, jetstream, jetstreamManager, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { describe, expect, inject, it } from 'vitest';
import { createJetStreamRequests } from '../jetstream-requests.js';
import { uniqueId } from '../testing/index.js';
import { acknowledgedUpTo, sweepAcknowledgedJobs } from './sweep-acknowledged-jobs.js';

describe('sweepAcknowledgedJobs', () => {
  it('deletes the messages on the queue subject at or below the consumer ack floor, and nothing else', async () => {
    const connection = await connect({ servers: inject('natsUrl') });
    const manager = await jetstreamManager(connection);
    // A limits stream keeps acknowledged messages, as a 2.9 work queue wrongly does after a restart.
    const stream = uniqueId('SWEEP').toUpperCase();
    await manager.streams.add({
      name: stream,
      subjects: [`${stream}.>`],
      storage: StorageType.Memory,
      retention: RetentionPolicy.Limits,
    });
    const subject = `${stream}.queue`;
    const client = jetstream(connection);
    for (let index = 0; index < 5; index += 1) {
      await client.publish(subject, `job ${index}`);
      await client.publish(`${stream}.other`, `other ${index}`);
    }
    await manager.consumers.add(stream, {
      durable_name: 'workers',
      filter_subject: subject,
      ack_policy: AckPolicy.Explicit,
    });
    const consumer = await client.consumers.get(stream, 'workers');
    for (let index = 0; index < 3; index += 1) {
      const message = await consumer.next();
      await message?.ackAck();
    }
    const requests = createJetStreamRequests(connection, 2_000);
    const names = { apiPrefix: '$JS.API', stream, consumer: 'workers', subject };
    expect(await sweepAcknowledgedJobs(requests, names)).toBe(3);
    const left = await manager.streams.info(stream, { subjects_filter: '>' });
    expect(left.state.subjects).toEqual({ [subject]: 2, [`${stream}.other`]: 5 });
    // Nothing more to sweep, from any number of workers.
    expect(await sweepAcknowledgedJobs(requests, names)).toBe(0);
    await manager.streams.delete(stream);
    await connection.close();
  });

  it('keeps every delivered job that waits for its ack, whatever the floor says', async () => {
    const connection = await connect({ servers: inject('natsUrl') });
    const manager = await jetstreamManager(connection);
    const stream = uniqueId('SWEEP').toUpperCase();
    await manager.streams.add({ name: stream, subjects: [`${stream}.>`], storage: StorageType.Memory });
    const subject = `${stream}.queue`;
    const client = jetstream(connection);
    for (let index = 0; index < 3; index += 1) await client.publish(subject, `job ${index}`);
    await manager.consumers.add(stream, {
      durable_name: 'workers',
      filter_subject: subject,
      ack_policy: AckPolicy.Explicit,
    });
    const consumer = await client.consumers.get(stream, 'workers');
    const first = await consumer.next();
    const second = await consumer.next();
    await second?.ackAck();
    // The first job is still running: nothing may be swept, though a later one was acknowledged.
    const requests = createJetStreamRequests(connection, 2_000);
    expect(await sweepAcknowledgedJobs(requests, { apiPrefix: '$JS.API', stream, consumer: 'workers', subject })).toBe(
      0,
    );
    expect((await manager.streams.info(stream)).state.messages).toBe(3);
    await first?.ackAck();
    await manager.streams.delete(stream);
    await connection.close();
  });

  it('reads a restarted 2.9 server that lost its ack floor but waits for no ack as acknowledged up to what it delivered', () => {
    // The consumer state a nats-server 2.9.10 SIGKILLed under load came back with.
    const lostFloor = { delivered: { stream_seq: 160 }, ack_floor: { stream_seq: 1 }, num_ack_pending: 0 };
    expect(acknowledgedUpTo(lostFloor)).toBe(160);
    expect(acknowledgedUpTo({ ...lostFloor, num_ack_pending: 1 })).toBe(1);
    expect(acknowledgedUpTo({ ack_floor: { stream_seq: 7 } })).toBe(7);
    expect(acknowledgedUpTo({})).toBe(0);
  });
});
