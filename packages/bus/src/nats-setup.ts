import { setTimeout as sleep } from 'node:timers/promises';
import {
  DiscardPolicy,
  type JetStreamClient,
  type JetStreamManager,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
  type StreamConfig,
} from '@nats-io/jetstream';
import { type KV, Kvm } from '@nats-io/kv';
import { type ConnectionOptions, connect, type NatsConnection, nanos } from '@nats-io/transport-node';
import { BusConnectionError } from './bus-connection-error.js';
import type { PayloadCodec } from './codec/payload-codec.js';
import { createJetStreamRequests, type JetStreamRequests } from './jetstream-requests.js';
import { type NatsAuthOptions, splitServerCredentials, withoutCredentials } from './nats-connection-options.js';
import { isTransientNatsError, retryTransient } from './retry.js';
import {
  CHECKPOINT_BUCKET,
  CLAIMS_STREAM,
  CLAIMS_SUBJECT_ROOT,
  DEAD_STREAM,
  DEAD_SUBJECT_ROOT,
  EVENTS_STREAM,
  EVENTS_SUBJECT_ROOT,
  JOBS_STREAM,
  JOBS_SUBJECT_ROOT,
  PENDING_BUCKET,
  TIMERS_STREAM,
  TIMERS_SUBJECT_ROOT,
} from './subjects.js';
import { probeTlsRefusal } from './tls-probe.js';

/**
 * Options of `natsBus()`; every one but `servers` has a default that suits a small deployment.
 * `user`/`pass`, `token`, `authenticator` (`nkeyAuthenticator(seed)`, `credsAuthenticator(creds)`
 * from `@nats-io/transport-node`) and `tls` (`{ caFile, certFile, keyFile }`, or the PEM text as
 * `ca`, `cert`, `key`) are nats.js's connection options, passed through.
 */
export interface NatsBusOptions extends NatsAuthOptions {
  /**
   * One URL or several of the same cluster, e.g. `nats://127.0.0.1:4222`. A URL may carry
   * credentials: `nats://user:password@host:4222`, or a token as `nats://token@host:4222`.
   */
  servers: string | string[];
  /** Connection name shown by the server's monitoring. */
  name?: string;
  /** How long a JetStream request waits for its answer before it is retried. Default 5 s. */
  requestTimeoutMs?: number;
  /** How long a publish's message id is remembered for deduplication. Default 1 h. */
  duplicateWindowMs?: number;
  /** How long the event log keeps transitions. Default 0: forever. */
  eventMaxAgeMs?: number;
  /** A running job that sends no heartbeat for this long is redelivered. Default 30 s. */
  jobAckWaitMs?: number;
  /**
   * How many times a job is delivered before it is refused: it goes to the queue's dead letters
   * (`INTERLUDE_DEAD`, subject `interlude.dead.<queue>`) with a `failed` event. Default 5.
   */
  jobMaxDeliver?: number;
  /**
   * Copies JetStream keeps of every stream and of the checkpoint bucket: 1 on a single server, 3
   * (or 5) on a cluster, so the bus outlives the loss of a server. Default 1.
   */
  replicas?: number;
  /**
   * Seals what the bus stores, so the server and whoever reads its streams see no tool result,
   * answer or message text: event data, job params, answers and checkpoints, checkpoint records,
   * the claim log's checkpoints and errors, dead letters. Subjects, event types and ids stay
   * readable. Default: `aesGcmCodec()` when `INTERLUDE_PAYLOAD_KEY` is set, none otherwise;
   * `false`: none, whatever the environment says.
   */
  codec?: PayloadCodec | false | undefined;
  /**
   * Hears what the bus cannot throw to a caller: a subscriber's handler that failed, a job that
   * failed (it is redelivered). Default: `console.error`.
   */
  onError?: (error: unknown, context: string) => void;
}

/** Everything `natsBus` talks to, once the connection is up and the streams exist. */
export interface NatsResources {
  connection: NatsConnection;
  /** The hot path's publishes and acks (a leaner request/reply than nats.js's own). */
  requests: JetStreamRequests;
  client: JetStreamClient;
  manager: JetStreamManager;
  checkpoints: KV;
  /** The pending index's bucket (`interlude_pending`). */
  pending: KV;
  /**
   * Checkpoints are read with direct gets (nats-server 2.9+ allows them on a bucket), which any
   * replica may answer: fine on one server; with replicas the stream leader is asked instead, so
   * a load right after another process's save finds it.
   */
  checkpointsDirect: boolean;
}

/**
 * Connects, trying again every 250 ms (up to 2 s apart) until a server answers or the bus is
 * closed; after that the client reconnects forever by itself, so the bus outlives server
 * restarts. The first call to the bus waits for this. A server that answers no (bad or missing
 * credentials, a TLS setup that does not match its own) is not retried: the bus fails at once
 * with a `BusConnectionError` saying which.
 */
export async function connectNats(options: NatsBusOptions, isClosed: () => boolean): Promise<NatsConnection> {
  const { servers, credentials } = splitServerCredentials(options.servers);
  const connectionOptions: ConnectionOptions = {
    servers,
    name: options.name ?? 'interlude',
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    // An Error per request for async stack traces cost up to 0.6 ms a generation (profiled).
    noAsyncTraces: true,
    ...credentials,
    ...definedOnly({
      user: options.user,
      pass: options.pass,
      token: options.token,
      authenticator: options.authenticator,
      tls: options.tls,
    }),
  };
  const server = withoutCredentials(servers[0] ?? '');
  let delay = 250;
  for (;;) {
    try {
      return await connectOrRefuse(connectionOptions, server);
    } catch (error) {
      if (BusConnectionError.isInstance(error)) throw error;
      const refusal = refusalOf(error, server);
      if (refusal !== undefined) throw refusal;
      if (isClosed() || !isUnreachable(error)) throw error;
      await sleep(delay);
      delay = Math.min(delay * 2, 2_000);
      if (isClosed()) throw new Error('natsBus was closed before it connected', { cause: error });
    }
  }
}

/**
 * One connect. A server that refuses the client's certificate makes nats.js time out after
 * `timeout` (20 s) and look merely unreachable, so with TLS options the connect is raced with a
 * TLS probe of the same server, which hears the refusal within a round trip; without them (a
 * server whose CA the process trusts through NODE_EXTRA_CA_CERTS) a timed-out connect is probed
 * before it is retried.
 */
async function connectOrRefuse(options: ConnectionOptions, server: string): Promise<NatsConnection> {
  const attempt = connect(options);
  const probe = () =>
    probeTlsRefusal(server, options.tls).then((tlsError) =>
      tlsError === undefined ? undefined : tlsFailed(server, tlsError),
    );
  if (options.tls === undefined || options.tls === null) {
    try {
      return await attempt;
    } catch (error) {
      if (error instanceof Error && error.name === 'TimeoutError') throw (await probe()) ?? error;
      throw error;
    }
  }
  const refused = probe().then((refusal) =>
    refusal === undefined ? new Promise<never>(() => undefined) : Promise.reject(refusal),
  );
  try {
    return await Promise.race([attempt, refused]);
  } catch (error) {
    // The attempt lost the race to a refusal: should it connect after all, close it.
    if (BusConnectionError.isInstance(error))
      attempt.then(
        (late) => late.close(),
        () => undefined,
      );
    throw error;
  }
}

/** The server's no, as a `BusConnectionError`: credentials refused, or TLS that does not match. */
function refusalOf(error: unknown, server: string): BusConnectionError | undefined {
  if (!(error instanceof Error)) return undefined;
  if (error.name === 'AuthorizationError' || error.name === 'UserAuthenticationExpiredError') {
    return new BusConnectionError(
      'authorization_failed',
      server,
      `nats-server at ${server} refused the bus's credentials (${error.message}): give natsBus user and pass, a token, an authenticator (nkey or creds), or put them in the URL (nats://user:password@host:4222)`,
      { cause: error },
    );
  }
  const code = String((error as { code?: unknown }).code ?? '');
  if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/i.test(code) || /\btls\b|certificate/i.test(error.message)) {
    return tlsFailed(server, error);
  }
  return undefined;
}

function tlsFailed(server: string, error: Error): BusConnectionError {
  return new BusConnectionError(
    'tls_failed',
    server,
    `TLS with nats-server at ${server} failed (${error.message}): check natsBus's tls option (caFile for the server's CA, certFile and keyFile when the server requires a client certificate)`,
    { cause: error },
  );
}

function definedOnly<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** The server is not there (yet): refused, unreachable, timed out. Bad credentials are not this. */
function isUnreachable(error: unknown): boolean {
  return error instanceof Error && (error.name === 'ConnectionError' || isTransientNatsError(error));
}

/**
 * Makes sure the event stream, the job stream and the checkpoint bucket exist. Safe to run from
 * many processes at once: creating what another process just created is not an error.
 */
export async function setUpNats(
  connection: NatsConnection,
  options: NatsBusOptions,
  isClosed: () => boolean,
): Promise<NatsResources> {
  const timeout = options.requestTimeoutMs ?? 5_000;
  const manager = await retryTransient(() => jetstreamManager(connection, { timeout }), { isClosed });
  const duplicateWindow = nanos(options.duplicateWindowMs ?? 60 * 60 * 1_000);
  const replicas = replicasOf(options);
  await ensureStream(manager, isClosed, {
    name: EVENTS_STREAM,
    subjects: [`${EVENTS_SUBJECT_ROOT}.>`],
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    duplicate_window: duplicateWindow,
    max_age: nanos(options.eventMaxAgeMs ?? 0),
    num_replicas: replicas,
  });
  await ensureStream(manager, isClosed, {
    name: JOBS_STREAM,
    subjects: [`${JOBS_SUBJECT_ROOT}.>`],
    storage: StorageType.File,
    retention: RetentionPolicy.Workqueue,
    duplicate_window: duplicateWindow,
    num_replicas: replicas,
  });
  // Write-once slots: the first write to a subject is stored, every later one is refused by the
  // stream leader in log order (JetStream error 10077), on every nats-server from 2.9 on.
  await ensureStream(manager, isClosed, {
    name: CLAIMS_STREAM,
    subjects: [`${CLAIMS_SUBJECT_ROOT}.>`],
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    max_msgs_per_subject: 1,
    discard: DiscardPolicy.New,
    discard_new_per_subject: true,
    duplicate_window: duplicateWindow,
    num_replicas: replicas,
  });
  await ensureStream(manager, isClosed, {
    name: DEAD_STREAM,
    subjects: [`${DEAD_SUBJECT_ROOT}.>`],
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    duplicate_window: duplicateWindow,
    num_replicas: replicas,
  });
  // Deadlines: each held until a worker meets it, then acknowledged away.
  await ensureStream(manager, isClosed, {
    name: TIMERS_STREAM,
    subjects: [`${TIMERS_SUBJECT_ROOT}.>`],
    storage: StorageType.File,
    retention: RetentionPolicy.Workqueue,
    duplicate_window: duplicateWindow,
    num_replicas: replicas,
  });
  const client = jetstream(connection, { timeout });
  const pending = await retryTransient(() => new Kvm(client).create(PENDING_BUCKET, { history: 1, replicas }), {
    isClosed,
  });
  const checkpoints = await retryTransient(() => new Kvm(client).create(CHECKPOINT_BUCKET, { history: 1, replicas }), {
    isClosed,
  });
  const status = await retryTransient(() => checkpoints.status(), { isClosed });
  return {
    connection,
    requests: createJetStreamRequests(connection, timeout),
    client,
    manager,
    checkpoints,
    pending,
    checkpointsDirect: status.streamInfo.config.allow_direct === true && replicas === 1,
  };
}

/** The `replicas` option, checked: a positive integer (JetStream takes at most 5). */
export function replicasOf(options: NatsBusOptions): number {
  const replicas = options.replicas ?? 1;
  if (!Number.isInteger(replicas) || replicas < 1 || replicas > 5) {
    throw new TypeError(`replicas must be an integer from 1 to 5, got ${String(options.replicas)}`);
  }
  return replicas;
}

async function ensureStream(
  manager: JetStreamManager,
  isClosed: () => boolean,
  config: Partial<StreamConfig> & { name: string },
): Promise<void> {
  await retryTransient(
    async () => {
      try {
        await manager.streams.info(config.name);
      } catch (error) {
        if (!(error instanceof Error) || error.name !== 'StreamNotFoundError') throw error;
        try {
          await manager.streams.add(config);
        } catch (addError) {
          // Another process may have created it between our info and our add.
          await manager.streams.info(config.name).catch(() => {
            throw addError;
          });
        }
      }
    },
    { isClosed },
  );
}
