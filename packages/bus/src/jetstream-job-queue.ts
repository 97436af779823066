import type { Job, JobConsumer, JobHandler, JobQueue } from '@interlude/core';
import { AckPolicy, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { headers as createHeaders, type NatsConnection, nanos } from '@nats-io/transport-node';
import { type JetStreamRequests, MSG_ID_HEADER } from './jetstream-requests.js';
import { runJobConsumer } from './job-consumer-loop.js';
import { encodeJson } from './json-codec.js';
import { type RetryOptions, retryTransient } from './retry.js';
import { JOBS_STREAM, jobConsumerName, jobSubject } from './subjects.js';

export interface JobQueueSettings {
  ackWaitMs: number;
  maxDeliver: number;
  onError: (error: unknown, context: string) => void;
}

/**
 * Jobs on the work-queue stream `INTERLUDE_JOBS`, one subject and one durable consumer per queue
 * (every worker of a queue shares it, so each job goes to one of them). A job is removed once
 * acknowledged; one whose worker died is redelivered after `ackWaitMs` without a heartbeat.
 */
export function createJetStreamJobQueue(
  resources: () => Promise<{
    connection: NatsConnection;
    requests: JetStreamRequests;
    client: JetStreamClient;
    manager: JetStreamManager;
  }>,
  settings: JobQueueSettings,
  retry: RetryOptions,
): JobQueue {
  return {
    async enqueue(queue: string, job: Job, headers?: Record<string, string>) {
      const { requests } = await resources();
      const subject = jobSubject(queue);
      const messageHeaders = createHeaders();
      messageHeaders.set(MSG_ID_HEADER, job.id);
      for (const [name, value] of Object.entries(headers ?? {})) messageHeaders.set(name, value);
      if (job.traceparent !== undefined && !messageHeaders.has('traceparent')) {
        messageHeaders.set('traceparent', job.traceparent);
      }
      const data = encodeJson(job);
      await retryTransient(() => requests.publish(subject, data, messageHeaders), retry);
    },

    async consume(queue: string, handler: JobHandler, options: { concurrency: number }): Promise<JobConsumer> {
      if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
        throw new TypeError(`concurrency must be a positive integer, got ${options.concurrency}`);
      }
      const { connection, requests, client, manager } = await resources();
      await retryTransient(() => ensureJobConsumer(manager, queue, settings), retry);
      const pullSubject = `${client.apiPrefix}.CONSUMER.MSG.NEXT.${JOBS_STREAM}.${jobConsumerName(queue)}`;
      return runJobConsumer(connection, requests, pullSubject, handler, {
        ...settings,
        concurrency: options.concurrency,
        retry,
      });
    },
  };
}

async function ensureJobConsumer(manager: JetStreamManager, queue: string, settings: JobQueueSettings) {
  const name = jobConsumerName(queue);
  const wanted = { ack_wait: nanos(settings.ackWaitMs), max_deliver: settings.maxDeliver };
  try {
    const info = await manager.consumers.info(JOBS_STREAM, name);
    if (info.config.ack_wait !== wanted.ack_wait || info.config.max_deliver !== wanted.max_deliver) {
      await manager.consumers.update(JOBS_STREAM, name, wanted);
    }
  } catch (error) {
    if (!(error instanceof Error) || error.name !== 'ConsumerNotFoundError') throw error;
    await manager.consumers.add(JOBS_STREAM, {
      durable_name: name,
      filter_subject: jobSubject(queue),
      ack_policy: AckPolicy.Explicit,
      ...wanted,
    });
  }
}
