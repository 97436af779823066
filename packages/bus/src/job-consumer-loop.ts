import { setTimeout as sleep } from 'node:timers/promises';
import type { Job, JobConsumer, JobDelivery, JobHandler } from '@interlude/core';
import type { Consumer, ConsumerMessages, JsMsg } from '@nats-io/jetstream';
import { decodeJson } from './json-codec.js';
import { isTransientNatsError, type RetryOptions, retryTransient } from './retry.js';

interface LoopSettings {
  concurrency: number;
  ackWaitMs: number;
  onError: (error: unknown, context: string) => void;
  retry: RetryOptions;
}

/** How long one pull waits for jobs; also the longest `stop()` waits for an idle pull to end. */
const PULL_EXPIRES_MS = 1_000;

/**
 * Pulls only as many jobs as there are free slots, so a pulled job starts at once and never sits
 * in a buffer while its ack timer runs. Each running job sends a heartbeat every third of the ack
 * wait; it is acknowledged after its handler resolves and negatively acknowledged (redelivered
 * after a short backoff) when the handler rejects.
 */
export function runJobConsumer(consumer: Consumer, handler: JobHandler, settings: LoopSettings): JobConsumer {
  const running = new Set<Promise<void>>();
  let stopped = false;
  let currentPull: ConsumerMessages | undefined;

  const runOne = async (message: JsMsg) => {
    const heartbeat = setInterval(
      () => {
        try {
          message.working();
        } catch {
          // The connection is closing: without heartbeats the job is redelivered, which is the point.
        }
      },
      Math.max(100, settings.ackWaitMs / 3),
    );
    heartbeat.unref(); // the job's own work keeps the process alive, not its heartbeat
    try {
      const job = decodeJson<Job>(message.data);
      await handler(job, deliveryOf(message));
      clearInterval(heartbeat);
      await retryTransient(() => message.ackAck(), settings.retry);
    } catch (error) {
      clearInterval(heartbeat);
      settings.onError(error, `job on ${message.subject} (delivery ${message.info.deliveryCount})`);
      try {
        message.nak(Math.min(30_000, 250 * 2 ** (message.info.deliveryCount - 1)));
      } catch {
        // Closed connection: the ack wait runs out and the job is redelivered anyway.
      }
    }
  };

  const loop = (async () => {
    const active = () => !stopped && !settings.retry.isClosed();
    while (active()) {
      while (running.size >= settings.concurrency && active()) await Promise.race(running);
      if (!active()) break;
      try {
        currentPull = await consumer.fetch({
          max_messages: settings.concurrency - running.size,
          expires: PULL_EXPIRES_MS,
        });
        if (!active()) currentPull.stop();
        for await (const message of currentPull) {
          if (!active()) {
            // Pulled while stopping: hand it straight back rather than start it (if the connection
            // is already going, the ack wait returns it instead).
            try {
              message.nak();
            } catch {}
            continue;
          }
          const task = runOne(message).finally(() => running.delete(task));
          running.add(task);
        }
      } catch (error) {
        if (!active()) break;
        // The server being away is expected and retried quietly; anything else is worth a report.
        if (!isTransientNatsError(error)) settings.onError(error, 'pulling jobs');
        await sleep(250);
      }
    }
  })();

  return {
    async stop() {
      stopped = true;
      currentPull?.stop();
      await loop;
      await Promise.all(running);
    },
  };
}

function deliveryOf(message: JsMsg): JobDelivery {
  const headers: Record<string, string> = {};
  for (const name of message.headers?.keys() ?? []) {
    const value = message.headers?.get(name);
    if (value !== undefined) headers[name] = value;
  }
  return { attempt: message.info.deliveryCount, headers };
}
