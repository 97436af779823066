import { DEFAULT_QUEUE } from '@interlude/core/internal';
import { DEFAULT_UNAVAILABLE_AFTER_MS } from '../bus-availability.js';
import { assertSubjectToken } from '../subjects.js';
import { type DeploymentSettings, readDeploymentSettings } from './deployment-settings.js';
import { type Environment, SettingsError, SettingsReader } from './environment-values.js';

/** The bin's own variables beside the NATS ones, in the order `--help` lists them. */
export const WORKER_VARIABLES = {
  queue: 'INTERLUDE_QUEUE',
  concurrency: 'INTERLUDE_CONCURRENCY',
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
export interface WorkerSettings extends DeploymentSettings {
  queue: string;
  concurrency: number;
  health: { port: number; host: string };
  drainTimeoutMs: number;
  /** Set when OpenTelemetry metrics are exported (an OTLP endpoint is configured). */
  metricExport: { intervalMs: number } | undefined;
}

/**
 * Reads the settings, or throws a `SettingsError` listing every problem. Nothing is started here:
 * files are checked and read, nothing connects.
 */
export function readWorkerSettings(args: readonly string[], environment: Environment): WorkerSettings {
  const reader = new SettingsReader(environment);
  const deployment = readDeploymentSettings('interlude-worker', args, reader, environment);
  const queue = reader.text(WORKER_VARIABLES.queue) ?? DEFAULT_QUEUE;
  try {
    assertSubjectToken('queue', queue);
  } catch (error) {
    reader.problem(WORKER_VARIABLES.queue, (error as Error).message);
  }
  const settings: WorkerSettings = {
    ...deployment,
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
  };
  if (reader.problems.length > 0) throw new SettingsError(reader.problems);
  return settings;
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
