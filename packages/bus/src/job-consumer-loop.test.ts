import type { Job, JobHandler } from '@interlude/core/internal';
import {
  AckPolicy,
  type JetStreamManager,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
} from '@nats-io/jetstream';
import { connect, type NatsConnection, nanos } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createJetStreamRequests } from './jetstream-requests.js';
import { runJobConsumer } from './job-consumer-loop.js';
import { gate } from './test-support/gate.js';
import { eventually, sampleJob, uniqueId } from './testing/index.js';

let connection: NatsConnection;
let manager: JetStreamManager;

beforeAll(async () => {
  connection = await connect({ servers: inject('natsUrl'), noAsyncTraces: true });
  manager = await jetstreamManager(connection);
});

afterAll(async () => {
  await connection.close();
});

const CONSUMER = 'workers';

/**
 * A stream and a pull consumer on the real nats-server, with a log of what the job consumer
 * answers each delivery (a subscription beside JetStream's own on the ack subjects). The consumer's
 * ack wait (1 s) is shorter than the heartbeat the job consumer is told to keep (every 10 s), so
 * the server delivers a job again while the first delivery still runs: the copy a dropped
 * connection causes, here on demand.
 */
async function jobStream(retention: RetentionPolicy = RetentionPolicy.Workqueue) {
  const stream = uniqueId('LOOP');
  const subject = `${stream}.jobs`;
  const addConsumer = () =>
    manager.consumers.add(stream, { durable_name: CONSUMER, ack_policy: AckPolicy.Explicit, ack_wait: nanos(1_000) });
  const addStream = async () => {
    await manager.streams.add({ name: stream, subjects: [subject], storage: StorageType.Memory, retention });
    await addConsumer();
  };
  await addStream();
  const log: string[] = [];
  connection.subscribe(`$JS.ACK.${stream}.>`, {
    callback: (_error, ack) => {
      // `$JS.ACK.<stream>.<consumer>.<delivery count>.…` (newer servers add a domain and account hash).
      const tokens = ack.subject.split('.');
      log.push(`delivery ${tokens[tokens.length === 9 ? 4 : 6]}: ${ack.string()}`);
    },
  });
  const consumerInfo = () => manager.consumers.info(stream, CONSUMER);
  return {
    log,
    consumerInfo,
    addConsumer,
    async enqueue(job: Job) {
      await jetstream(connection).publish(subject, JSON.stringify(job));
    },
    /** Waits until the server delivered the job at least `count` times. */
    async delivered(count: number) {
      let delivered = 0;
      await eventually(async () => {
        delivered = (await consumerInfo()).delivered.consumer_seq;
        return delivered >= count;
      }, `${count} deliveries`);
    },
    async consume(handler: JobHandler) {
      const consumer = await jetstream(connection).consumers.get(stream, CONSUMER);
      return runJobConsumer(consumer, connection, createJetStreamRequests(connection, 2_000), handler, {
        concurrency: 4,
        ackWaitMs: 30_000,
        maxDeliver: 5,
        onError: () => undefined,
        retry: { isClosed: () => false },
        deadLetter: async () => undefined,
      });
    },
    /** The stream deleted and made again, with its consumer: it numbers its messages from 1 again. */
    async makeAnew() {
      await manager.streams.delete(stream);
      await addStream();
    },
    remove: () => manager.streams.delete(stream),
  };
}

describe('the job consumer', () => {
  it('runs a job the server delivers again while the first delivery runs only once, and acknowledges every delivery', async () => {
    const jobs = await jobStream();
    const runs: string[] = [];
    const release = gate();
    const consumer = await jobs.consume(async (job) => {
      runs.push(job.id);
      await release.passed;
    });
    const job = sampleJob();
    await jobs.enqueue(job);
    await jobs.delivered(3); // the first delivery and at least two copies, one of them arrived
    expect(runs).toEqual([job.id]);

    release.open();
    await eventually(async () => (await jobs.consumerInfo()).num_ack_pending === 0, 'the job acknowledged');
    await eventually(() => jobs.log.length >= 3, 'the copies acknowledged');
    expect(runs).toEqual([job.id]);
    expect(jobs.log.slice(0, 2)).toEqual(['delivery 1: +ACK', 'delivery 2: +ACK']);
    expect(jobs.log.every((answer) => answer.endsWith(': +ACK'))).toBe(true);
    await consumer.stop();
    await jobs.remove();
  });

  it('hands back the copies of a job whose first delivery failed with the same backoff, and runs it once meanwhile', async () => {
    const jobs = await jobStream();
    const release = gate();
    const consumer = await jobs.consume(async () => {
      jobs.log.push('run');
      await release.passed;
      throw new Error('the model is down');
    });
    await jobs.enqueue(sampleJob());
    await jobs.delivered(3);
    release.open();
    const backoff = '-NAK {"delay":250000000}';
    await eventually(
      () => jobs.log.includes(`delivery 1: ${backoff}`) && jobs.log.includes(`delivery 2: ${backoff}`),
      'both handed back',
    );
    await consumer.stop();
    // Every answer up to the hand-backs is the backoff, and the job ran once before them (its
    // next delivery, after the backoff, may have run since).
    const handedBack = jobs.log.indexOf(`delivery 2: ${backoff}`);
    expect(jobs.log.slice(0, handedBack + 1).filter((entry) => entry === 'run')).toEqual(['run']);
    expect(jobs.log.slice(1, handedBack + 1).every((entry) => entry.endsWith(backoff))).toBe(true);
    await jobs.remove();
  });

  it('acknowledges without running a job delivered again after it was acknowledged; a new job under a sequence seen before (a stream made anew) runs', async () => {
    const jobs = await jobStream(RetentionPolicy.Limits);
    const runs: string[] = [];
    const consumer = await jobs.consume(async (job) => void runs.push(job.id));
    const first = sampleJob();
    await jobs.enqueue(first);
    await eventually(() => jobs.log.length === 1, 'the first ack');
    // The consumer made again delivers the stored job again, as a first delivery once more.
    await manager.consumers.delete((await jobs.consumerInfo()).stream_name, CONSUMER);
    await jobs.addConsumer();
    await eventually(() => jobs.log.length === 2, 'the copy acknowledged');
    expect(jobs.log).toEqual(['delivery 1: +ACK', 'delivery 1: +ACK']);
    expect(runs).toEqual([first.id]);

    // A stream made anew numbers its messages from 1 again: a new job under sequence 1 runs.
    await jobs.makeAnew();
    const reused = sampleJob();
    await jobs.enqueue(reused);
    await eventually(() => runs.length === 2, 'the new job');
    expect(runs).toEqual([first.id, reused.id]);
    await consumer.stop();
    await jobs.remove();
  });
});
