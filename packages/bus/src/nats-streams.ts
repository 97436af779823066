import { DiscardPolicy, jetstream, jetstreamManager, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { type NatsConnection, nanos } from '@nats-io/transport-node';
import { createJetStreamRequests } from './jetstream-requests.js';
import { defaultReplicas } from './nats-server-support.js';
import type { NatsBusOptions, NatsResources } from './nats-setup.js';
import { type RetryOptions, retryTransient } from './retry.js';
import { StreamConfigError, type StreamDifference } from './stream-config-error.js';
import { ensureStream, streamInfo, type WantedStream } from './stream-settings.js';
import type { NatsNames } from './subjects.js';

/** A day, for the limits' defaults. */
const DAY_MS = 24 * 60 * 60 * 1_000;

/** The event log's and the dead letters' limits when the options name none. */
export const RETENTION_DEFAULTS = {
  eventMaxAgeMs: 30 * DAY_MS,
  eventMaxBytes: 1024 ** 3,
  deadLetterMaxAgeMs: 30 * DAY_MS,
  deadLetterMaxBytes: 256 * 1024 ** 2,
} as const;

/**
 * Makes sure the streams and the checkpoint bucket exist with the settings the options ask for,
 * and reads their replicas. Safe to run from many processes at once. Streams that exist with
 * other settings are updated with `updateStreams`, and otherwise refused with a
 * `StreamConfigError` naming every difference. Without a `replicas` option the bus takes the
 * replicas of the streams already there, or on a new deployment `defaultReplicas` of the server.
 */
export async function setUpNats(
  connection: NatsConnection,
  options: NatsBusOptions,
  isClosed: () => boolean,
  names: NatsNames,
): Promise<NatsResources> {
  const timeout = options.requestTimeoutMs ?? 5_000;
  const retry: RetryOptions = { isClosed };
  const manager = await retryTransient(() => jetstreamManager(connection, { timeout }), retry);
  const existing = await streamInfo(manager, names.eventsStream, retry);
  const replicas = replicasOf(options) ?? existing?.config.num_replicas ?? defaultReplicas(connection.info ?? {});
  const duplicateWindow = nanos(options.duplicateWindowMs ?? 60 * 60 * 1_000);
  const limits = retentionOf(options);
  const wanted: WantedStream[] = [
    {
      name: names.eventsStream,
      subjects: [`${names.eventsSubjectRoot}.>`],
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
      duplicate_window: duplicateWindow,
      max_age: nanos(limits.eventMaxAgeMs),
      max_bytes: bytesLimit(limits.eventMaxBytes),
      num_replicas: replicas,
    },
    {
      name: names.jobsStream,
      subjects: [`${names.jobsSubjectRoot}.>`],
      storage: StorageType.File,
      retention: RetentionPolicy.Workqueue,
      duplicate_window: duplicateWindow,
      num_replicas: replicas,
    },
    // Write-once slots: the first write to a subject is stored, every later one is refused by the
    // stream leader in log order (JetStream error 10077), on every nats-server from 2.9 on. Kept
    // without limits: a claim is what refuses a second resume of a checkpoint, for good.
    {
      name: names.claimsStream,
      subjects: [`${names.claimsSubjectRoot}.>`],
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
      max_msgs_per_subject: 1,
      discard: DiscardPolicy.New,
      discard_new_per_subject: true,
      duplicate_window: duplicateWindow,
      num_replicas: replicas,
    },
    {
      name: names.deadStream,
      subjects: [`${names.deadSubjectRoot}.>`],
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
      duplicate_window: duplicateWindow,
      max_age: nanos(limits.deadLetterMaxAgeMs),
      max_bytes: bytesLimit(limits.deadLetterMaxBytes),
      num_replicas: replicas,
    },
    // Deadlines: each held until a worker meets it, then acknowledged away.
    {
      name: names.timersStream,
      subjects: [`${names.timersSubjectRoot}.>`],
      storage: StorageType.File,
      retention: RetentionPolicy.Workqueue,
      duplicate_window: duplicateWindow,
      num_replicas: replicas,
    },
  ];
  const update = options.updateStreams === true;
  const differences: StreamDifference[] = [];
  for (const stream of wanted) {
    const stored = stream.name === names.eventsStream ? existing : undefined;
    differences.push(...(await ensureStream(manager, stream, { retry, update, stored })));
  }
  // The buckets are made by nats.js (their streams have KV's own settings); only what the bus
  // decides is checked: their replicas, and one value kept per key.
  for (const name of [names.checkpointStream, names.pendingStream]) {
    const bucketStream: WantedStream = { name, num_replicas: replicas, max_msgs_per_subject: 1 };
    const bucketStored = await streamInfo(manager, name, retry);
    if (bucketStored !== undefined) {
      differences.push(...(await ensureStream(manager, bucketStream, { retry, update, stored: bucketStored })));
    }
  }
  if (differences.length > 0) {
    throw new StreamConfigError(
      differences,
      'Give natsBus the options they were made with, or updateStreams: true to change them to these (INTERLUDE_UPDATE_STREAMS=1 for interlude-worker).',
    );
  }
  const client = jetstream(connection, { timeout });
  const checkpoints = await retryTransient(
    () => new Kvm(client).create(names.checkpointBucket, { history: 1, replicas }),
    retry,
  );
  const pending = await retryTransient(
    () => new Kvm(client).create(names.pendingBucket, { history: 1, replicas }),
    retry,
  );
  const status = await retryTransient(() => checkpoints.status(), retry);
  const config = status.streamInfo.config;
  return {
    connection,
    requests: createJetStreamRequests(connection, timeout),
    client,
    manager,
    checkpoints,
    pending,
    checkpointsDirect: config.allow_direct === true && config.num_replicas === 1,
    replicas,
    names,
  };
}

/** JetStream's "no limit" for bytes is -1; the options say 0. */
function bytesLimit(bytes: number): number {
  return bytes === 0 ? -1 : bytes;
}

/** The `replicas` option, checked: a positive integer (JetStream takes at most 5), or undefined. */
export function replicasOf(options: NatsBusOptions): number | undefined {
  const replicas = options.replicas;
  if (replicas === undefined) return undefined;
  if (!Number.isInteger(replicas) || replicas < 1 || replicas > 5) {
    throw new TypeError(`replicas must be an integer from 1 to 5, got ${String(options.replicas)}`);
  }
  return replicas;
}

/** The retention options with their defaults, checked: whole numbers, 0 for no limit. */
export function retentionOf(options: NatsBusOptions): Record<keyof typeof RETENTION_DEFAULTS, number> {
  const limits: Record<keyof typeof RETENTION_DEFAULTS, number> = { ...RETENTION_DEFAULTS };
  for (const name of Object.keys(RETENTION_DEFAULTS) as (keyof typeof RETENTION_DEFAULTS)[]) {
    const value = options[name];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new TypeError(`${name} must be a whole number, 0 for no limit, got ${String(value)}`);
    }
    limits[name] = value;
  }
  return limits;
}
