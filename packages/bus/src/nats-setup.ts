import { setTimeout as sleep } from 'node:timers/promises';
import type { BusHealth } from '@interlude/core/internal';
import type { JetStreamClient, JetStreamManager } from '@nats-io/jetstream';
import type { KV } from '@nats-io/kv';
import { type ConnectionOptions, connect, type NatsConnection } from '@nats-io/transport-node';
import { BusConnectionError } from './bus-connection-error.js';
import type { PayloadCodec } from './codec/payload-codec.js';
import type { JetStreamRequests } from './jetstream-requests.js';
import { type NatsAuthOptions, splitServerCredentials, withoutCredentials } from './nats-connection-options.js';
import { checkServerSupport } from './nats-server-support.js';
import { isTransientNatsError } from './retry.js';
import type { NatsNames } from './subjects.js';
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
  /**
   * Puts every stream, bucket, subject and consumer of the bus under this name (`acme`:
   * `acme_INTERLUDE_EVENTS`, `acme.interlude.gen.…`, `acme_interlude_checkpoints`), and with them
   * the deployment id, so deployments with different prefixes share a NATS and nothing else. 1 to
   * 32 letters, digits, `_` or `-`. Default: none (`INTERLUDE_PREFIX` for interlude-worker).
   */
  prefix?: string;
  /** How long a JetStream request waits for its answer before it is retried. Default 5 s. */
  requestTimeoutMs?: number;
  /** How long a publish's message id is remembered for deduplication. Default 1 h. */
  duplicateWindowMs?: number;
  /**
   * How long the event log keeps transitions: older ones are removed. Default 30 days; 0: forever.
   * A generation whose start was removed reads as `events_expired` (`EventsExpiredError`).
   */
  eventMaxAgeMs?: number;
  /** How large the event log may grow: past it the oldest transitions are removed. Default 1 GiB; 0: no limit. */
  eventMaxBytes?: number;
  /** How long dead letters are kept. Default 30 days; 0: forever. */
  deadLetterMaxAgeMs?: number;
  /** How large the dead letters may grow: past it the oldest are removed. Default 256 MiB; 0: no limit. */
  deadLetterMaxBytes?: number;
  /**
   * Streams or the bucket that exist with other settings (replicas, limits) than these options
   * ask for are updated to them; without it the bus refuses to start with a `StreamConfigError`
   * (code `stream_config_mismatch`) naming each difference. Default false.
   */
  updateStreams?: boolean;
  /**
   * How long an operation (publish, events, subscribe, checkpoints, claims, enqueue) waits for
   * NATS, while no server is connected or the stream it needs has no leader, before it fails with
   * `BusUnavailableError` (code `bus_unavailable`). Default 10 s; `Infinity`: wait out any outage.
   * A worker's consumer is not bound by it: it waits for NATS for as long as it runs.
   */
  unavailableAfterMs?: number;
  /**
   * Hears every change of the bus's availability: the connection lost or back, a stream found
   * without a leader or answering again. The same shape as `health()`.
   */
  onStatus?: (status: BusHealth) => void;
  /** A running job that sends no heartbeat for this long is redelivered. Default 30 s. */
  jobAckWaitMs?: number;
  /**
   * How many times a job is delivered before it is refused: it goes to the queue's dead letters
   * (`INTERLUDE_DEAD`, subject `interlude.dead.<queue>`) with a `failed` event. Default 5.
   */
  jobMaxDeliver?: number;
  /**
   * Copies JetStream keeps of every stream and of the checkpoint bucket: 1 on a single server, 3
   * (or 5) on a cluster, so the bus outlives the loss of a server. Default: the replicas of the
   * streams already there; on a new deployment 3 when the server belongs to a cluster of three or
   * more servers, 1 otherwise.
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
  /** Copies the streams and the bucket are kept in. */
  replicas: number;
  /** The bus's names on NATS, from its `prefix`. */
  names: NatsNames;
}

/**
 * Connects, trying again every 250 ms (up to 2 s apart) until a server answers or the bus is
 * closed; after that the client reconnects forever by itself, so the bus outlives server
 * restarts. The first call to the bus waits for this. A server that answers no (bad or missing
 * credentials, a TLS setup that does not match its own) is not retried, nor is one the bus cannot
 * run on (`checkServerSupport`): the bus fails at once with a `BusConnectionError` saying which.
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
      const connection = await connectOrRefuse(connectionOptions, server);
      try {
        checkServerSupport(connection.info ?? { version: '0.0.0' }, withoutCredentials(connection.getServer()));
      } catch (refusal) {
        await connection.close();
        throw refusal;
      }
      return connection;
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
