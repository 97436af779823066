import { createStopBound, type JobConsumer, type JobHandler } from '@interlude/core/internal';
import type { Consumer, ConsumerMessages, JsMsg } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { type AnswerSettings, answerJob } from './answer-job.js';
import { watchConnectionStatus } from './connection-status.js';
import { acknowledgeJob, type Held, handBack, holdJob, storedMessage } from './held-job.js';
import type { JetStreamRequests } from './jetstream-requests.js';
import { createJobCopies } from './job-copies.js';
import { isTransientNatsError } from './retry.js';
import { startAcknowledgedJobsSweeper } from './server-2.9/acknowledged-jobs-sweeper.js';
import { createDeliveryCountFloor } from './server-2.9/delivery-count-floor.js';

interface LoopSettings extends AnswerSettings {
  concurrency: number;
  ackWaitMs: number;
  /** Removes acknowledged jobs a 2.9 server kept (`sweepAcknowledgedJobs`). */
  sweep?: () => Promise<number>;
}

/**
 * How long one fetch waits for jobs before the server ends it. Its idle heartbeats come every
 * fifth of that (nats.js ends a fetch that missed two: a pull lost with a restarted server).
 */
const FETCH_EXPIRES_MS = 5_000;
const FETCH_HEARTBEAT_MS = 1_000;

/**
 * Runs jobs of one JetStream pull consumer with nats.js's `fetch()` and `JsMsg`, keeping what is
 * Interlude's: never more than `concurrency` jobs at once, copies, the stop bound, dead letters.
 *
 * It fetches only as many jobs as there are free slots, so a fetched job starts at once and never
 * sits in a buffer while its ack timer runs (`consume()` refills ahead of what is processed). When
 * slots free up (jobs finishing in the same tick are counted together) and no more than half of
 * them are still asked for, one fetch asks for every free slot. Each running job sends a heartbeat
 * (`working()`) every third of the ack wait; it is acknowledged (and the server's confirmation
 * awaited) after its handler resolves, and handed back (`nak(backoff)`) when the handler rejects.
 *
 * nats.js ends a fetch when the server does (a 408 with what it did not deliver, a 409, a 503
 * while JetStream restarts) or when two of its heartbeats are missed (a pull lost with the
 * server), and re-pulls a fetch after a reconnect; a fetch ended with an error is tried again
 * after a pause. A re-pulled fetch may deliver more than it asked for, and so may a pull still
 * alive on the server after a reconnect: such a job waits in the consumer, kept alive by its
 * heartbeat, and starts when a slot frees, so no more than `concurrency` jobs ever run and none
 * is handed back (which would spend one of its deliveries). `stop()` ends the fetches first (so
 * the server hands what comes back to another worker), hands the waiting jobs back at once, and
 * the running ones once its `timeoutMs` is reached. The server may also deliver again, after a
 * drop, a job that did arrive: `createJobCopies` answers such a copy as the job it copies.
 */
export function runJobConsumer(
  consumer: Consumer,
  connection: NatsConnection,
  requests: JetStreamRequests,
  handler: JobHandler,
  settings: LoopSettings,
): JobConsumer {
  /** Running jobs, by the task that runs each. */
  const running = new Map<Promise<void>, Held>();
  /** Jobs delivered while every slot was busy, oldest first, each with its heartbeat running. */
  const waiting: Held[] = [];
  const fetches = new Set<ConsumerMessages>();
  /** Slots asked for by fetches and not delivered yet. */
  let requested = 0;
  let stopped = false;
  /** The last fetch ended in an error (JetStream away): not consuming until one goes through. */
  let refused = false;
  let disconnected = false;
  let pullScheduled = false;
  let retryTimer: NodeJS.Timeout | undefined;
  const active = () => !stopped && !settings.retry.isClosed() && !connection.isClosed();
  const floor = createDeliveryCountFloor();
  const acknowledgeCopy = (copy: JsMsg) => {
    acknowledgeJob(requests, copy, settings.retry).catch((error: unknown) =>
      settings.onError(error, `acknowledging a second delivery of ${copy.subject}`),
    );
  };
  const copies = createJobCopies(acknowledgeCopy);

  const start = (held: Held) => {
    const task = answerJob(held, handler, requests, settings, floor)
      .then((answer) => copies.settle(held, answer))
      .finally(() => {
        running.delete(task);
        const next = waiting.shift();
        if (next !== undefined) start(next);
        schedulePull();
      });
    running.set(task, held);
  };

  const receive = (message: JsMsg) => {
    refused = false;
    if (!active()) return handBack(message); // fetched while stopping: handed straight back
    const identity = storedMessage(message);
    if (copies.wasAcknowledged(identity)) return acknowledgeCopy(message);
    const held = holdJob(message, identity, settings.ackWaitMs);
    if (copies.keepIfCopy(held)) return;
    if (running.size >= settings.concurrency) waiting.push(held);
    else start(held);
  };

  const fetchFreeSlots = async () => {
    pullScheduled = false;
    if (!active() || disconnected) return;
    const batch = settings.concurrency - running.size - waiting.length - requested;
    // While at least half the slots are still asked for, those fetches take the next jobs as soon
    // as they are queued: asking for a freed slot or two now would only add fetches.
    if (batch <= 0 || requested * 2 > settings.concurrency) return;
    requested += batch;
    let left = batch;
    let messages: ConsumerMessages | undefined;
    try {
      messages = await consumer.fetch({
        max_messages: batch,
        expires: FETCH_EXPIRES_MS,
        idle_heartbeat: FETCH_HEARTBEAT_MS,
      });
      fetches.add(messages);
      if (stopped) messages.stop();
      for await (const message of messages) {
        if (left > 0) {
          left -= 1;
          requested -= 1;
        }
        receive(message);
      }
      refused = false;
      schedulePull();
    } catch (error) {
      if (!active()) return;
      refused = true;
      if (!isQuietFetchError(error)) settings.onError(error, 'pulling jobs');
      retryLater();
    } finally {
      requested -= left;
      if (messages !== undefined) fetches.delete(messages);
    }
  };
  /** Fetches once the current tick is over, so slots freed together are asked for in one fetch. */
  const schedulePull = () => {
    if (pullScheduled) return;
    pullScheduled = true;
    queueMicrotask(() => void fetchFreeSlots());
  };
  const retryLater = () => {
    if (retryTimer !== undefined) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      schedulePull();
    }, 250);
  };

  const statuses = watchConnectionStatus(connection, (status) => {
    if (status.type === 'disconnect') disconnected = true;
    else if (status.type === 'reconnect') {
      disconnected = false;
      schedulePull();
    }
  });
  const sweeper =
    settings.sweep === undefined
      ? undefined
      : startAcknowledgedJobsSweeper(connection, settings.sweep, { active, onError: settings.onError });
  schedulePull();

  /** Hands every running job back at once: the bound of a stop was reached. */
  const bound = createStopBound(() => {
    for (const held of running.values()) {
      held.handedBack = true;
      clearInterval(held.heartbeat);
      handBack(held.message);
      copies.settle(held, { acknowledged: false });
    }
  });

  return {
    isConsuming: () => active() && !disconnected && !refused,

    async stop(options) {
      bound.moveTo(options?.timeoutMs);
      if (!stopped) {
        stopped = true;
        // The fetches end first, so the server (which skips a pull nobody listens to any more)
        // delivers what is handed back below to another worker, not to a fetch of this one, which
        // would only hand it back again and spend a delivery each time. A job the server sent just
        // before it heard this is redelivered after the ack wait.
        for (const messages of fetches) messages.stop();
        if (retryTimer !== undefined) clearTimeout(retryTimer);
        statuses.stop();
        sweeper?.stop();
        for (const held of waiting.splice(0)) {
          clearInterval(held.heartbeat);
          handBack(held.message);
          copies.settle(held, { acknowledged: false });
        }
      }
      // Running jobs finish (acknowledged as they do), or are handed back at the bound.
      await bound.wait(Promise.all(running.keys()));
    },
  };
}

/**
 * A fetch ended by the server being away or busy, which the next fetch after a pause gets past:
 * a timeout, a 503 while JetStream restarts, missed heartbeats (a pull lost with the server), too
 * many pulls waiting (409 "exceeded maxwaiting"). Anything else (the consumer deleted, a bad
 * request) is reported.
 */
function isQuietFetchError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'JetStreamStatusError') {
    const { code } = error as Error & { code?: number };
    return code === 503 || code === 408 || /exceeded maxwaiting/i.test(error.message);
  }
  if (error.name === 'JetStreamError' && /heartbeats missed/i.test(error.message)) return true;
  return isTransientNatsError(error);
}
