import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  AckPolicy,
  type ConsumerInfo,
  type JsMsg,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
} from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJetStreamRequests } from '../../packages/bus/src/jetstream-requests.js';
import { sweepAcknowledgedJobs } from '../../packages/bus/src/server-2.9/sweep-acknowledged-jobs.js';
import { freePort } from '../support/bus-raw-log.js';
import { type StartedNatsServer, startNatsServer } from '../support/global-setup.js';

const STREAM = 'VANISHED_JOBS';
const CONSUMER = 'workers';
const SUBJECT = `${STREAM}.queue`;

let storeDirectory: string;
let port: number;
let server: StartedNatsServer | undefined;

/** Stops the server as an operator would (SIGTERM: it writes its state), resolving once it is gone. */
async function stopServer(): Promise<void> {
  if (server === undefined) return;
  const exited = new Promise((resolve) => server?.process.once('exit', resolve));
  server.process.kill('SIGTERM');
  await exited;
  server = undefined;
}

async function withConnection<T>(work: (connection: NatsConnection) => Promise<T>): Promise<T> {
  const connection = await connect({ servers: `nats://127.0.0.1:${port}` });
  try {
    return await work(connection);
  } finally {
    await connection.close();
  }
}

/**
 * A delivery's reply subject, which names its job: acknowledging it works from any connection and
 * across a restart, as a worker's late ack would. (nats.js has it on the message, not the type.)
 */
function replySubjectOf(delivery: JsMsg): string {
  return (delivery as JsMsg & { reply: string }).reply;
}

function acknowledge(connection: NatsConnection, replySubject: string | undefined): Promise<unknown> {
  return connection.request(replySubject ?? '', '+ACK');
}

async function consumerState(connection: NatsConnection): Promise<ConsumerInfo> {
  return (await jetstreamManager(connection)).consumers.info(STREAM, CONSUMER);
}

beforeAll(async () => {
  storeDirectory = await mkdtemp(join(tmpdir(), 'interlude-vanished-jobs-'));
  port = await freePort();
  server = await startNatsServer(storeDirectory, port);
});

afterAll(async () => {
  await stopServer();
  await rm(storeDirectory, { recursive: true, force: true });
});

describe('a 2.9 server restarted with consumer state older than its work-queue stream', () => {
  it('counts a job the stream no longer holds as pending for good; the sweep releases it and leaves the job a worker holds', async () => {
    // Four jobs, all delivered and unacknowledged.
    const deliveries = await withConnection(async (connection) => {
      const manager = await jetstreamManager(connection);
      await manager.streams.add({
        name: STREAM,
        subjects: [`${STREAM}.>`],
        storage: StorageType.File,
        retention: RetentionPolicy.Workqueue,
      });
      const client = jetstream(connection);
      for (let index = 1; index <= 4; index += 1) await client.publish(SUBJECT, `job ${index}`);
      await manager.consumers.add(STREAM, {
        durable_name: CONSUMER,
        filter_subject: SUBJECT,
        ack_policy: AckPolicy.Explicit,
        ack_wait: 500_000_000, // 0.5 s, in nanoseconds
      });
      const consumer = await client.consumers.get(STREAM, CONSUMER);
      const taken: string[] = [];
      for (let index = 0; index < 4; index += 1) {
        const delivery = await consumer.next({ expires: 2_000 });
        if (delivery === null) throw new Error('a job was not delivered');
        taken.push(replySubjectOf(delivery));
      }
      return taken;
    });
    // The consumer's state as it stood with all four pending: what a SIGKILLed server can come
    // back with when its consumer state was last written before an acknowledgement its stream kept.
    await stopServer();
    const consumerFile = join(storeDirectory, 'jetstream', '$G', 'streams', STREAM, 'obs', CONSUMER, 'o.dat');
    const olderState = `${consumerFile}.older`;
    await copyFile(consumerFile, olderState);
    server = await startNatsServer(storeDirectory, port);
    // Job 2 is acknowledged: the work queue removes it.
    await withConnection((connection) => acknowledge(connection, deliveries[1]));
    await stopServer();
    await copyFile(olderState, consumerFile);
    server = await startNatsServer(storeDirectory, port);

    await withConnection(async (connection) => {
      // Jobs 3 and 4 are acknowledged; job 1 is still with its worker.
      await acknowledge(connection, deliveries[2]);
      await acknowledge(connection, deliveries[3]);
      await sleep(2_000); // past the ack wait, several times: job 2 is "redelivered" and never arrives
      const stuck = await consumerState(connection);
      expect(stuck.num_ack_pending).toBe(2);
      expect(stuck.ack_floor.stream_seq).toBe(0);

      const requests = createJetStreamRequests(connection, 2_000);
      await sweepAcknowledgedJobs(requests, {
        apiPrefix: '$JS.API',
        stream: STREAM,
        consumer: CONSUMER,
        subject: SUBJECT,
      });
      const released = await consumerState(connection);
      expect(released.num_ack_pending).toBe(1);
      // Job 1, which a worker holds, is neither acknowledged nor removed.
      const manager = await jetstreamManager(connection);
      expect((await manager.streams.info(STREAM)).state.messages).toBe(1);
      expect((await manager.streams.getMessage(STREAM, { seq: 1 }))?.string()).toBe('job 1');

      // Its worker finishes it: the floor reaches the last delivered job, the queue is empty.
      await acknowledge(connection, deliveries[0]);
      const done = await consumerState(connection);
      expect(done.num_ack_pending).toBe(0);
      expect(done.ack_floor.stream_seq).toBe(4);
      expect((await manager.streams.info(STREAM)).state.messages).toBe(0);
    });
  }, 60_000);
});
