import { DEFAULT_QUEUE } from '@interlude/core/internal';
import { DEFAULT_UNAVAILABLE_AFTER_MS } from '../bus-availability.js';
import { aesGcmCodecOf } from '../codec/aes-gcm-codec.js';
import type { PayloadCodec } from '../codec/payload-codec.js';
import { environmentPayloadKeys, PAYLOAD_KEY_VARIABLE } from '../codec/payload-keys.js';
import { assertSubjectToken, natsNames } from '../subjects.js';
import { type Environment, SettingsError, SettingsReader } from './environment-values.js';
import { type NatsSettings, readNatsSettings } from './nats-environment.js';

/** The bin's own variables beside the NATS ones, in the order `--help` lists them. */
export const WORKER_VARIABLES = {
  prefix: 'INTERLUDE_PREFIX',
  queue: 'INTERLUDE_QUEUE',
  concurrency: 'INTERLUDE_CONCURRENCY',
  replicas: 'INTERLUDE_REPLICAS',
  updateStreams: 'INTERLUDE_UPDATE_STREAMS',
  unavailableAfter: 'INTERLUDE_UNAVAILABLE_AFTER_MS',
  healthPort: 'INTERLUDE_HEALTH_PORT',
  healthHost: 'INTERLUDE_HEALTH_HOST',
  drainTimeout: 'INTERLUDE_DRAIN_TIMEOUT_MS',
} as const;

/** Defaults of the bin's settings, documented in the bus README. */
export const WORKER_DEFAULTS = {
  concurrency: 1,
  healthPort: 8080,
  healthHost: '0.0.0.0',
  /** Inside Kubernetes' default grace period (30 s) with the closing bound added. */
  drainTimeoutMs: 20_000,
  unavailableAfterMs: DEFAULT_UNAVAILABLE_AFTER_MS,
  metricExportIntervalMs: 60_000,
} as const;

/** Everything the bin runs with, read from its arguments and environment. */
export interface WorkerSettings {
  /** The user's module of agents, as given (resolved against the working directory). */
  modulePath: string;
  nats: NatsSettings;
  /** The deployment's prefix on NATS (`natsBus({ prefix })`), when set. */
  prefix: string | undefined;
  /** Copies JetStream keeps of the streams and bucket, when set. */
  replicas: number | undefined;
  /** Streams set up otherwise are updated to these settings instead of refused. */
  updateStreams: boolean;
  /** How long a job's bus operation waits for NATS before it fails (and the job is retried). */
  unavailableAfterMs: number;
  queue: string;
  concurrency: number;
  health: { port: number; host: string };
  drainTimeoutMs: number;
  /** Set when OpenTelemetry metrics are exported (an OTLP endpoint is configured). */
  metricExport: { intervalMs: number } | undefined;
  /** The payload codec from `INTERLUDE_PAYLOAD_KEY`; false when it is unset (payloads stored plain). */
  codec: PayloadCodec | false;
}

/**
 * Reads the settings, or throws a `SettingsError` listing every problem. Nothing is started here:
 * files are checked and read, nothing connects.
 */
export function readWorkerSettings(args: readonly string[], environment: Environment): WorkerSettings {
  const reader = new SettingsReader(environment);
  const modulePath = args[0];
  if (modulePath === undefined || modulePath.trim() === '' || modulePath.startsWith('-')) {
    reader.problem('module', 'give the path of your module of agents: interlude-worker ./agents.js');
  } else if (args.length > 1) {
    reader.problem('arguments', `one module path only, got ${args.length} arguments`);
  }
  const nats = readNatsSettings(reader);
  const prefix = reader.text(WORKER_VARIABLES.prefix);
  try {
    natsNames(prefix);
  } catch (error) {
    reader.problem(WORKER_VARIABLES.prefix, (error as Error).message);
  }
  const queue = reader.text(WORKER_VARIABLES.queue) ?? DEFAULT_QUEUE;
  try {
    assertSubjectToken('queue', queue);
  } catch (error) {
    reader.problem(WORKER_VARIABLES.queue, (error as Error).message);
  }
  const settings: WorkerSettings = {
    modulePath: modulePath ?? '',
    nats,
    prefix,
    replicas:
      reader.text(WORKER_VARIABLES.replicas) === undefined
        ? undefined
        : reader.integer(WORKER_VARIABLES.replicas, 1, 1, 5, ' (JetStream keeps at most 5 copies)'),
    updateStreams: readFlag(reader, WORKER_VARIABLES.updateStreams),
    unavailableAfterMs: reader.integer(
      WORKER_VARIABLES.unavailableAfter,
      WORKER_DEFAULTS.unavailableAfterMs,
      1,
      3_600_000,
    ),
    queue,
    concurrency: reader.integer(
      WORKER_VARIABLES.concurrency,
      WORKER_DEFAULTS.concurrency,
      1,
      1_000,
      ' (a JetStream consumer has at most 1,000 jobs unacknowledged by default)',
    ),
    health: {
      port: reader.integer(WORKER_VARIABLES.healthPort, WORKER_DEFAULTS.healthPort, 0, 65_535, ' (0: any free port)'),
      host: reader.text(WORKER_VARIABLES.healthHost) ?? WORKER_DEFAULTS.healthHost,
    },
    drainTimeoutMs: reader.integer(WORKER_VARIABLES.drainTimeout, WORKER_DEFAULTS.drainTimeoutMs, 0, 3_600_000),
    metricExport: readMetricExport(reader),
    codec: readPayloadCodec(reader, environment),
  };
  if (reader.problems.length > 0) throw new SettingsError(reader.problems);
  return settings;
}

/** A yes/no variable: `1`/`true` or `0`/`false`, unset for no. */
function readFlag(reader: SettingsReader, name: string): boolean {
  const value = reader.text(name)?.toLowerCase();
  if (value === undefined || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  reader.problem(name, `must be 1 or 0 (true or false), got ${JSON.stringify(value)}`);
  return false;
}

/**
 * `INTERLUDE_PAYLOAD_KEY`, checked here with the rest so a bad key is reported before anything
 * connects (the message names the key by position, never by value).
 */
function readPayloadCodec(reader: SettingsReader, environment: Environment): PayloadCodec | false {
  try {
    const keys = environmentPayloadKeys({ [PAYLOAD_KEY_VARIABLE]: environment[PAYLOAD_KEY_VARIABLE] });
    return keys === undefined ? false : aesGcmCodecOf(keys);
  } catch (error) {
    reader.problem(PAYLOAD_KEY_VARIABLE, (error as Error).message);
    return false;
  }
}

/**
 * The standard OpenTelemetry variables: metrics are exported when `OTEL_EXPORTER_OTLP_ENDPOINT`
 * or `OTEL_EXPORTER_OTLP_METRICS_ENDPOINT` is set (the exporter reads those and
 * `OTEL_EXPORTER_OTLP_HEADERS` itself) and `OTEL_METRICS_EXPORTER` is not `none`.
 */
function readMetricExport(reader: SettingsReader): WorkerSettings['metricExport'] {
  const exporter = reader.text('OTEL_METRICS_EXPORTER');
  if (exporter === 'none') return undefined;
  if (exporter !== undefined && exporter !== 'otlp') {
    reader.problem('OTEL_METRICS_EXPORTER', `otlp or none, got ${JSON.stringify(exporter)}`);
  }
  let configured = false;
  for (const name of ['OTEL_EXPORTER_OTLP_METRICS_ENDPOINT', 'OTEL_EXPORTER_OTLP_ENDPOINT']) {
    const endpoint = reader.text(name);
    if (endpoint === undefined) continue;
    configured = true;
    if (!/^https?:\/\/[^/\s]+/i.test(endpoint)) {
      reader.problem(name, `an http:// or https:// URL, got ${JSON.stringify(endpoint)}`);
    }
  }
  if (!configured) return undefined;
  const intervalMs = reader.integer(
    'OTEL_METRIC_EXPORT_INTERVAL',
    WORKER_DEFAULTS.metricExportIntervalMs,
    100,
    86_400_000,
    ' milliseconds',
  );
  return { intervalMs };
}
