import {
  type DeadLetter,
  type Job,
  type JobConsumer,
  type JobHandler,
  type JobQueue,
  PayloadTooLargeError,
} from '@interlude/core/internal';
import { AckPolicy, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { headers as createHeaders, type NatsConnection, nanos } from '@nats-io/transport-node';
import type { PayloadSealer } from './codec/payload-sealer.js';
import { openDeadLetter, openJob, sealDeadLetter, sealJob } from './codec/sealed-records.js';
import { type JetStreamRequests, MSG_ID_HEADER } from './jetstream-requests.js';
import { runJobConsumer } from './job-consumer-loop.js';
import { decodeJson, encodeJson } from './json-codec.js';
import { readSubject } from './read-subject.js';
import { type RetryOptions, retryTransient } from './retry.js';
import { sweepAcknowledgedJobs } from './server-2.9/sweep-acknowledged-jobs.js';
import type { NatsNames } from './subjects.js';

export interface JobQueueSettings {
  ackWaitMs: number;
  /** Deliveries a job gets; past them it is dead-lettered. The server itself never gives up on one. */
  maxDeliver: number;
  onError: (error: unknown, context: string) => void;
}

/**
 * Jobs on the work-queue stream `INTERLUDE_JOBS`, one subject and one durable consumer per queue
 * (every worker of a queue shares it, so each job goes to one of them). A job is removed once
 * acknowledged; one whose worker died or stalled is redelivered after `ackWaitMs` without a
 * heartbeat. A refused job, or one delivered `maxDeliver` times without success, is written to
 * `INTERLUDE_DEAD` (subject `interlude.dead.<queue>`) and acknowledged: nothing stays in the
 * queue for good (the consumer's own `max_deliver` is unlimited, since a server that stops
 * delivering a job leaves it in a work queue forever, and acknowledged jobs a 2.9 server failed
 * to remove are swept: `sweepAcknowledgedJobs`). With a codec, a job's params, answers and
 * checkpoint are sealed in the queue and in the dead letters, and opened before a handler sees them.
 */
export function createJetStreamJobQueue(
  resources: () => Promise<{
    connection: NatsConnection;
    requests: JetStreamRequests;
    client: JetStreamClient;
    manager: JetStreamManager;
    names: NatsNames;
  }>,
  settings: JobQueueSettings,
  retry: RetryOptions,
  sealer: PayloadSealer,
  /** A caller's retries (enqueue, dead letters read), bounded; the consumer's wait out any outage. */
  callerRetry: RetryOptions = retry,
): JobQueue {
  return {
    async enqueue(queue: string, job: Job, headers?: Record<string, string>) {
      const { requests, names } = await resources();
      const subject = names.jobSubject(queue);
      const messageHeaders = createHeaders();
      messageHeaders.set(MSG_ID_HEADER, job.id);
      for (const [name, value] of Object.entries(headers ?? {})) messageHeaders.set(name, value);
      if (job.traceparent !== undefined && !messageHeaders.has('traceparent')) {
        messageHeaders.set('traceparent', job.traceparent);
      }
      const data = encodeJson(sealJob(sealer, job));
      // A send whose ack never came may have been stored: a send after it (the same attempt's,
      // after a reconnect, or a retry's) then finds this call's own job there. Only a duplicate
      // that no earlier send of this call can explain is reported (a job id two callers share, as
      // answers through the gateway do); an earlier attempt explains it unless the server said it
      // stored nothing.
      const attempts: { storedNothing: boolean }[] = [];
      const { ack, earlier } = await retryTransient(async (timeoutMs) => {
        const attempt = { storedNothing: false };
        const earlier = [...attempts];
        attempts.push(attempt);
        try {
          return { ack: await requests.publish(subject, data, messageHeaders, timeoutMs), earlier };
        } catch (error) {
          attempt.storedNothing = storedNothing(error);
          throw error;
        }
      }, callerRetry);
      const ownEarlierAttempt = earlier.some((attempt) => !attempt.storedNothing);
      return { duplicate: ack.duplicate === true && ack.resent !== true && !ownEarlierAttempt };
    },

    async consume(queue: string, handler: JobHandler, options: { concurrency: number }): Promise<JobConsumer> {
      if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
        throw new TypeError(`concurrency must be a positive integer, got ${options.concurrency}`);
      }
      const { connection, requests, client, manager, names } = await resources();
      await retryTransient(() => ensureJobConsumer(manager, names, queue, settings), retry);
      const consumer = await retryTransient(
        () => client.consumers.get(names.jobsStream, names.jobConsumerName(queue)),
        retry,
      );
      const sweepNames = {
        apiPrefix: client.apiPrefix,
        stream: names.jobsStream,
        consumer: names.jobConsumerName(queue),
        subject: names.jobSubject(queue),
      };
      return runJobConsumer(consumer, connection, requests, handler, {
        ...settings,
        concurrency: options.concurrency,
        retry,
        sweep: () => sweepAcknowledgedJobs(requests, sweepNames),
        openJob: (job) => openJob(sealer, job),
        deadLetter: (letter, messageId) => publishDeadLetter(requests, names, queue, letter, messageId, retry, sealer),
      });
    },

    async deadLetters(queue: string) {
      const { client, requests, names } = await resources();
      const stored = await retryTransient(
        () => readSubject(client, requests, names.deadStream, names.deadLetterSubject(queue)),
        callerRetry,
      );
      return stored.map((message) => openDeadLetter(sealer, decodeJson<DeadLetter>(message.data)));
    },
  };
}

/** Stores a refused job; `messageId` names the delivery, so a retried write is stored once. */
async function publishDeadLetter(
  requests: JetStreamRequests,
  names: NatsNames,
  queue: string,
  letter: Omit<DeadLetter, 'queue' | 'version'>,
  messageId: string,
  retry: RetryOptions,
  sealer: PayloadSealer,
): Promise<void> {
  const headers = createHeaders();
  headers.set(MSG_ID_HEADER, `dead:${queue}:${messageId}`);
  const write = (kept: Omit<DeadLetter, 'queue' | 'version'>) =>
    retryTransient(
      () =>
        requests.publish(
          names.deadLetterSubject(queue),
          encodeJson(sealDeadLetter(sealer, { version: 1, queue, ...kept })),
          headers,
        ),
      retry,
    );
  try {
    await write(letter);
  } catch (error) {
    if (!PayloadTooLargeError.isInstance(error)) throw error;
    // A job too big to keep whole (it was near the limit itself) is kept by its names.
    const { params: _params, checkpoint: _checkpoint, answers: _answers, ...identity } = letter.job ?? ({} as Job);
    const { raw: _raw, job: _job, ...reason } = letter;
    await write({ ...reason, ...(letter.job !== undefined && { job: identity as Job }) });
  }
}

async function ensureJobConsumer(
  manager: JetStreamManager,
  names: NatsNames,
  queue: string,
  settings: JobQueueSettings,
) {
  const name = names.jobConsumerName(queue);
  const stream = names.jobsStream;
  // Unlimited: the consumer loop counts deliveries and dead-letters a job past `maxDeliver`.
  const wanted = { ack_wait: nanos(settings.ackWaitMs), max_deliver: -1 };
  try {
    const info = await manager.consumers.info(stream, name);
    if (info.config.ack_wait !== wanted.ack_wait || info.config.max_deliver !== wanted.max_deliver) {
      await manager.consumers.update(stream, name, wanted);
    }
  } catch (error) {
    if (!(error instanceof Error) || error.name !== 'ConsumerNotFoundError') throw error;
    await manager.consumers.add(stream, {
      durable_name: name,
      filter_subject: names.jobSubject(queue),
      ack_policy: AckPolicy.Explicit,
      ...wanted,
    });
  }
}

/** A publish nothing took: no JetStream responder for the subject (a stream electing, or none). */
function storedNothing(error: unknown): boolean {
  const name = (error as { name?: unknown } | undefined)?.name;
  return name === 'NoResponders' || name === 'JetStreamNotEnabled';
}
