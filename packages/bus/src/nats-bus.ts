import type { Bus, TrustError } from '@interlude/core';
import { type CheckpointKeys, type EventHandler, toEventFilter } from '@interlude/core/internal';
import type { NatsConnection } from '@nats-io/transport-node';
import { createAvailability, DEFAULT_UNAVAILABLE_AFTER_MS, NOT_CONNECTED_YET } from './bus-availability.js';
import { probeStreams, watchAvailability } from './bus-health.js';
import { createPayloadSealer } from './codec/payload-sealer.js';
import { createJetStreamJobQueue } from './jetstream-job-queue.js';
import { createKvCheckpointStore } from './kv-checkpoint-store.js';
import { createNatsClaimLog } from './nats-claim-log.js';
import { readDeploymentId } from './nats-deployment.js';
import { type EventTrust, publishEvent, readEvents } from './nats-event-log.js';
import { followEvents } from './nats-follow-events.js';
import { pausedGenerations } from './nats-paused-generations.js';
import { createNatsPendingIndex } from './nats-pending-index.js';
import { connectNats, type NatsBusOptions, type NatsResources } from './nats-setup.js';
import { replicasOf, retentionOf, setUpNats } from './nats-streams.js';
import { subscribeEvents } from './nats-subscribe.js';
import { createNatsTimerQueue } from './nats-timer-queue.js';
import { callerRetryOptions, type RetryOptions, retryTransient } from './retry.js';
import { natsNames } from './subjects.js';

export type { NatsBusOptions } from './nats-setup.js';

/**
 * The bus over NATS JetStream: how Interlude runs across processes and machines. Transitions go
 * to `interlude.gen.<agent>.<action>.<generation_id>.<event>` and the `INTERLUDE_EVENTS` log,
 * checkpoints to the KV bucket `interlude_checkpoints`, claims to the write-once slots of
 * `INTERLUDE_CLAIMS`, jobs to the work queue `INTERLUDE_JOBS` (refused ones to `INTERLUDE_DEAD`),
 * deadlines of expiring questions to `INTERLUDE_TIMERS` and the list of paused generations to the
 * KV bucket `interlude_pending`.
 * It is shared across processes, so a runtime on it needs a checkpoint key; with the runtime's
 * keys it signs every event (header `Interlude-Signature`) and drops, from `events()` and live
 * subscriptions, every event not signed with them. With a codec (`aesGcmCodec()`, or
 * `INTERLUDE_PAYLOAD_KEY` set) it seals what it stores and opens what it reads.
 *
 * It returns at once and connects in the background; the first call waits for the connection.
 * The connection reconnects forever, and every write made while the server is away is retried
 * with the same message id until stored, so nothing is lost or stored twice.
 *
 * @example
 * const runtime = createRuntime({ bus: natsBus({ servers: 'nats://127.0.0.1:4222' }) });
 */
export function natsBus(options: NatsBusOptions): Bus & Required<Pick<Bus, 'health'>> {
  // Bad values fail here, not in the background.
  replicasOf(options);
  retentionOf(options);
  const names = natsNames(options.prefix);
  const { checkpointStream, claimsStream, deadStream, eventsStream, jobsStream } = names;
  const unavailableAfterMs = unavailableAfterOf(options);
  const sealer = createPayloadSealer(options.codec); // and so does a bad payload key
  let closed = false;
  const retry: RetryOptions = { isClosed: () => closed };
  // A caller's retries stop at the bound; the consumer's (`retry`) wait out any outage.
  const callerRetry: RetryOptions = { ...retry, giveUpAfterMs: unavailableAfterMs };
  // One request each (a load, a claim, a job, an event): retried soon after a stream's new leader is elected.
  const callerRetries = callerRetryOptions(retry, unavailableAfterMs);
  const onError =
    options.onError ??
    ((error: unknown, context: string) => {
      console.error(`[interlude/bus] ${context}:`, error);
    });
  const availability = createAvailability(unavailableAfterMs, options.onStatus);
  const connecting = connectNats(options, retry.isClosed);
  let connected: NatsConnection | undefined;
  let watching: { stop(): void } | undefined;
  connecting.then(
    (connection) => {
      connected = connection;
      watching = watchAvailability(connection, availability);
    },
    () => undefined,
  );
  const ready: Promise<NatsResources> = connecting.then((connection) => {
    if (closed) {
      void connection.close();
      throw new Error('natsBus was closed before it connected');
    }
    return setUpNats(connection, options, retry.isClosed, names);
  });
  let setUp: NatsResources | undefined;
  let setUpFailure: unknown;
  ready.then(
    (resources) => {
      setUp = resources;
    },
    // A failed setup is reported by the first call that awaits it (and by health()), not as an
    // unhandled rejection.
    (error: unknown) => {
      setUpFailure = error;
    },
  );
  let keys: CheckpointKeys | undefined;
  let deployment: Promise<string> | undefined;
  const trust: EventTrust = {
    keys: () => keys,
    onRefused: (error: TrustError) => onError(error, 'event not trusted'),
    onUnreadable: (error, subject) => onError(error, `event on ${subject} not readable`),
  };
  const bounded = availability.bounded;
  const checkpoints = createKvCheckpointStore(() => ready, callerRetries, sealer);
  const claims = createNatsClaimLog(() => ready, callerRetries, sealer);
  const jobs = createJetStreamJobQueue(
    () => ready,
    { ackWaitMs: options.jobAckWaitMs ?? 30_000, maxDeliver: options.jobMaxDeliver ?? 5, onError },
    retry,
    sealer,
    callerRetries,
  );

  return {
    shared: true,

    useKeys(runtimeKeys) {
      keys = runtimeKeys;
    },

    deploymentId() {
      if (deployment === undefined) {
        const reading = bounded(checkpointStream, 'deploymentId', () =>
          ready.then((resources) => readDeploymentId(resources, callerRetry)),
        );
        deployment = reading;
        reading.catch(() => {
          if (deployment === reading) deployment = undefined;
        });
      }
      return deployment;
    },

    async publish(event) {
      // Set up already, the write is made in this tick (`setUp`), so events emitted together go
      // out in one socket write.
      await bounded(eventsStream, 'publish', async () => {
        await publishEvent(setUp ?? (await ready), event, callerRetries, keys, sealer);
      });
      // Completed: its checkpoint (there is one only if it paused, so only if a later run resumed
      // it) is resumed for good, and removed so finished generations leave nothing in the bucket.
      if (event.event === 'completed' && event.run !== 'start') {
        await bounded(checkpointStream, 'checkpoints.remove', () => checkpoints.remove(event.generation_id)).catch(
          (error: unknown) => onError(error, `removing the checkpoint of completed generation ${event.generation_id}`),
        );
      }
    },

    events(generationId, eventOptions) {
      // A read is idempotent: while the server is away it waits and tries again, up to the bound.
      return bounded(eventsStream, 'events', async () => {
        const resources = await ready;
        return retryTransient(
          () => readEvents(resources, generationId, trust, sealer, eventOptions?.everyEpoch === true),
          callerRetry,
        );
      });
    },

    pausedGenerations() {
      return bounded(eventsStream, 'pausedGenerations', async () =>
        retryTransient(async () => pausedGenerations(await ready), callerRetry),
      );
    },

    subscribe(filter, handler) {
      // A subscription is made locally (nats.js buffers it while disconnected): its success proves
      // nothing of the connection, so it is its own part.
      return bounded('subscribe', 'subscribe', async () => {
        return subscribeEvents(
          await ready,
          toEventFilter(filter),
          // The subjects listened on are those of the selected names: the events it is typed for.
          handler as EventHandler,
          (error, event) => onError(error, `subscriber of ${event.event} ${event.id}`),
          trust,
          sealer,
        );
      });
    },

    follow(filter, handler, followOptions) {
      return bounded(eventsStream, 'follow', async () =>
        followEvents(await ready, filter, handler, followOptions?.after, {
          trust,
          sealer,
          onHandlerError: (error, event) => onError(error, `follower of ${event.event} ${event.id}`),
        }),
      );
    },

    checkpoints: {
      save: (generationId, record) =>
        bounded(checkpointStream, 'checkpoints.save', () => checkpoints.save(generationId, record)),
      load: (generationId) => bounded(checkpointStream, 'checkpoints.load', () => checkpoints.load(generationId)),
    },

    claims: {
      read: (generationId, slot) => bounded(claimsStream, 'claims.read', () => claims.read(generationId, slot)),
      write: (generationId, slot, record) =>
        bounded(claimsStream, 'claims.write', () => claims.write(generationId, slot, record)),
    },

    jobs: {
      enqueue: (queue, job, headers) => bounded(jobsStream, 'jobs.enqueue', () => jobs.enqueue(queue, job, headers)),
      // A consumer waits for NATS for as long as it runs: a worker outlives any outage.
      consume: (queue, handler, consumeOptions) => jobs.consume(queue, handler, consumeOptions),
      deadLetters: (queue) => bounded(deadStream, 'jobs.deadLetters', () => jobs.deadLetters(queue)),
    },

    async health() {
      if (setUpFailure !== undefined) {
        const { code, message } = setUpFailure as { code?: unknown; message?: unknown };
        return {
          ok: false,
          reason: `set up failed${typeof code === 'string' ? ` (${code})` : ''}: ${String(message)}`,
        };
      }
      if (setUp === undefined) {
        return { ok: false, reason: connected === undefined ? NOT_CONNECTED_YET : 'setting up the streams' };
      }
      await probeStreams(setUp, availability);
      return availability.current();
    },

    // A due timer is the delivery of its expiry job: it lapses, and is handed on, as a job does.
    timers: createNatsTimerQueue(
      () => ready,
      options.jobAckWaitMs ?? 30_000,
      retry,
      () => keys,
      onError,
    ),

    pending: createNatsPendingIndex(() => ready, retry, sealer, onError),

    async close() {
      if (closed) return;
      closed = true;
      watching?.stop();
      const connection = connected;
      // Never reached a server: the connect loop sees `closed` and gives up.
      if (connection === undefined) return;
      await ready.catch(() => undefined);
      await connection.drain().catch(() => connection.close());
    },
  };
}

/** The `unavailableAfterMs` option, checked: a positive number of milliseconds, or `Infinity`. */
function unavailableAfterOf(options: NatsBusOptions): number {
  const value = options.unavailableAfterMs ?? DEFAULT_UNAVAILABLE_AFTER_MS;
  if (typeof value !== 'number' || Number.isNaN(value) || value <= 0) {
    throw new TypeError(
      `unavailableAfterMs must be a positive number of milliseconds (or Infinity), got ${String(value)}`,
    );
  }
  return value;
}
