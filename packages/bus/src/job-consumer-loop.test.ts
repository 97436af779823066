import type { Job, JobHandler } from '@interlude/core/internal';
import { connect, type Msg, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createJetStreamRequests } from './jetstream-requests.js';
import { runJobConsumer } from './job-consumer-loop.js';
import { eventually, sampleJob, uniqueId } from './testing/index.js';

let connection: NatsConnection;

beforeAll(async () => {
  connection = await connect({ servers: inject('natsUrl'), noAsyncTraces: true });
});

afterAll(async () => {
  await connection.close();
});

/**
 * Plays JetStream's side of a pull consumer on a real nats-server, so a test can deliver exactly
 * what it wants: it hears the consumer's pulls, hands out jobs on the pull's inbox with an ack
 * subject in JetStream's layout, and answers and records whatever the consumer sends to those.
 */
function scriptedJetStream() {
  const pullSubject = uniqueId('pull');
  const stream = uniqueId('STREAM');
  const inboxes: string[] = [];
  const answers: { ackSubject: string; answer: string }[] = [];
  connection.subscribe(pullSubject, { callback: (_error, pull: Msg) => void inboxes.push(pull.reply as string) });
  // The server drops a client's message whose reply starts with `$JS.`, so the ack subjects keep
  // JetStream's token layout under another first token.
  connection.subscribe(`JS.ACK.${stream}.>`, {
    callback: (_error, message: Msg) => {
      answers.push({ ackSubject: message.subject, answer: message.string() });
      if (message.reply) message.respond(); // the server confirms an ack that asked for a reply
    },
  });
  return {
    pullSubject,
    answers,
    /** Delivers `job` as stream message `streamSequence` stored at `storedAt` (ns), the consumer's delivery `consumerSequence`. */
    async deliver(job: Job, streamSequence: number, consumerSequence: number, storedAt = '1796000000000000000') {
      await eventually(() => inboxes.length > 0, 'a pull');
      const ackSubject = `JS.ACK.${stream}.consumer.1.${streamSequence}.${consumerSequence}.${storedAt}.0`;
      connection.publish(inboxes[0] as string, JSON.stringify(job), { reply: ackSubject });
      await connection.flush();
      return ackSubject;
    },
  };
}

/** A consumer of the scripted JetStream's pulls, with four slots, running `handler` for each job. */
function consumeFrom(jetStream: { pullSubject: string }, handler: JobHandler) {
  const settings = {
    concurrency: 4,
    ackWaitMs: 30_000,
    maxDeliver: 5,
    onError: () => undefined,
    retry: { isClosed: () => false },
    deadLetter: async () => undefined,
  };
  return runJobConsumer(
    connection,
    createJetStreamRequests(connection, 2_000),
    jetStream.pullSubject,
    handler,
    settings,
  );
}

/** A promise the test settles when it chooses: a job body waits on it. */
function gate(): { passed: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const passed = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { passed, open };
}

describe('the job consumer', () => {
  it('runs a job the server delivers a second time while the first delivery runs only once, and acknowledges both', async () => {
    const jetStream = scriptedJetStream();
    const runs: string[] = [];
    const release = gate();
    const consumer = consumeFrom(jetStream, async (job) => {
      runs.push(job.id);
      await release.passed;
    });
    const job = sampleJob();
    const first = await jetStream.deliver(job, 7, 1);
    await eventually(() => runs.length === 1, 'the first delivery running');
    // After a dropped connection JetStream may deliver it again, as a first delivery once more.
    const second = await jetStream.deliver(job, 7, 2);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(runs).toEqual([job.id]);

    release.open();
    await eventually(() => jetStream.answers.filter(({ answer }) => answer === '+ACK').length === 2, 'both acks');
    expect(runs).toEqual([job.id]);
    expect(jetStream.answers.filter(({ answer }) => answer === '+ACK').map(({ ackSubject }) => ackSubject)).toEqual([
      first,
      second,
    ]);
    await consumer.stop();
  });

  it('hands back the second delivery of a job whose first delivery failed, with the same backoff', async () => {
    const jetStream = scriptedJetStream();
    let runs = 0;
    const release = gate();
    const consumer = consumeFrom(jetStream, async () => {
      runs += 1;
      await release.passed;
      throw new Error('the model is down');
    });
    const job = sampleJob();
    const first = await jetStream.deliver(job, 9, 1);
    await eventually(() => runs === 1, 'the first delivery running');
    const second = await jetStream.deliver(job, 9, 2);
    release.open();
    await eventually(() => jetStream.answers.length === 2, 'both handed back');
    expect(runs).toBe(1);
    const backoff = '-NAK {"delay":250000000}';
    expect(jetStream.answers).toEqual([
      { ackSubject: first, answer: backoff },
      { ackSubject: second, answer: backoff },
    ]);
    await consumer.stop();
  });

  it('acknowledges without running a copy of a job that arrives after the job was acknowledged', async () => {
    const jetStream = scriptedJetStream();
    const runs: string[] = [];
    const consumer = consumeFrom(jetStream, async (job) => void runs.push(job.id));
    const job = sampleJob();
    await jetStream.deliver(job, 13, 1);
    await eventually(() => jetStream.answers.length === 1, 'the first ack');
    const late = await jetStream.deliver(job, 13, 2);
    await eventually(() => jetStream.answers.length === 2, 'the copy acknowledged');
    expect(jetStream.answers[1]).toEqual({ ackSubject: late, answer: '+ACK' });
    expect(runs).toEqual([job.id]);
    await consumer.stop();
  });

  it('runs different jobs, also one stored under a sequence seen before (a stream made anew): copies are told by sequence and time', async () => {
    const jetStream = scriptedJetStream();
    const runs: string[] = [];
    const consumer = consumeFrom(jetStream, async (job) => void runs.push(job.id));
    const jobs = [sampleJob(), sampleJob()];
    await jetStream.deliver(jobs[0] as Job, 11, 1);
    await jetStream.deliver(jobs[1] as Job, 12, 2);
    await eventually(() => runs.length === 2, 'both jobs');
    // A stream made anew numbers its messages from 1 again: a new job under a sequence seen before runs.
    const reused = sampleJob();
    await jetStream.deliver(reused, 11, 3, '1796000000000000001');
    jobs.push(reused);
    await eventually(() => runs.length === 3, 'all three jobs');
    expect(runs.sort()).toEqual(jobs.map((job) => job.id).sort());
    await consumer.stop();
  });
});
