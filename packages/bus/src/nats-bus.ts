import { type Bus, type CheckpointKeys, type TrustError, toEventFilter } from '@interlude/core';
import type { NatsConnection } from '@nats-io/transport-node';
import { createPayloadSealer } from './codec/payload-sealer.js';
import { createJetStreamJobQueue } from './jetstream-job-queue.js';
import { createKvCheckpointStore } from './kv-checkpoint-store.js';
import { createNatsClaimLog } from './nats-claim-log.js';
import { readDeploymentId } from './nats-deployment.js';
import { type EventTrust, publishEvent, readEvents } from './nats-event-log.js';
import { createNatsPendingIndex } from './nats-pending-index.js';
import { connectNats, type NatsBusOptions, type NatsResources, replicasOf, setUpNats } from './nats-setup.js';
import { subscribeEvents } from './nats-subscribe.js';
import { createNatsTimerQueue } from './nats-timer-queue.js';
import { type RetryOptions, retryTransient } from './retry.js';

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
export function natsBus(options: NatsBusOptions): Bus {
  replicasOf(options); // a bad value fails here, not in the background
  const sealer = createPayloadSealer(options.codec); // and so does a bad payload key
  let closed = false;
  const retry: RetryOptions = { isClosed: () => closed };
  const onError =
    options.onError ??
    ((error: unknown, context: string) => {
      console.error(`[interlude/bus] ${context}:`, error);
    });
  const connecting = connectNats(options, retry.isClosed);
  let connected: NatsConnection | undefined;
  connecting.then(
    (connection) => {
      connected = connection;
    },
    () => undefined,
  );
  const ready: Promise<NatsResources> = connecting.then((connection) => {
    if (closed) {
      void connection.close();
      throw new Error('natsBus was closed before it connected');
    }
    return setUpNats(connection, options, retry.isClosed);
  });
  // A failed setup is reported by the first call that awaits it, not as an unhandled rejection.
  ready.catch(() => undefined);
  let keys: CheckpointKeys | undefined;
  let deployment: Promise<string> | undefined;
  const trust: EventTrust = {
    keys: () => keys,
    onRefused: (error: TrustError) => onError(error, 'event not trusted'),
    onUnreadable: (error, subject) => onError(error, `event on ${subject} not readable`),
  };

  return {
    shared: true,

    useKeys(runtimeKeys) {
      keys = runtimeKeys;
    },

    deploymentId() {
      if (deployment === undefined) {
        const reading = ready.then((resources) => readDeploymentId(resources, retry));
        deployment = reading;
        reading.catch(() => {
          if (deployment === reading) deployment = undefined;
        });
      }
      return deployment;
    },

    async publish(event) {
      const { requests } = await ready;
      await publishEvent(requests, event, retry, keys, sealer);
    },

    async events(generationId, eventOptions) {
      const resources = await ready;
      // A read is idempotent: while the server is away it waits and tries again.
      return retryTransient(
        () => readEvents(resources, generationId, trust, sealer, eventOptions?.everyEpoch === true),
        retry,
      );
    },

    async subscribe(filter, handler) {
      const { connection } = await ready;
      return subscribeEvents(
        connection,
        toEventFilter(filter),
        handler,
        (error, event) => onError(error, `subscriber of ${event.event} ${event.id}`),
        trust,
        sealer,
      );
    },

    checkpoints: createKvCheckpointStore(() => ready, retry, sealer),

    claims: createNatsClaimLog(() => ready, retry, sealer),

    jobs: createJetStreamJobQueue(
      () => ready,
      {
        ackWaitMs: options.jobAckWaitMs ?? 30_000,
        maxDeliver: options.jobMaxDeliver ?? 5,
        onError,
      },
      retry,
      sealer,
    ),

    timers: createNatsTimerQueue(() => ready, retry, onError),

    pending: createNatsPendingIndex(() => ready, retry, sealer, onError),

    async close() {
      if (closed) return;
      closed = true;
      const connection = connected;
      // Never reached a server: the connect loop sees `closed` and gives up.
      if (connection === undefined) return;
      await ready.catch(() => undefined);
      await connection.drain().catch(() => connection.close());
    },
  };
}
