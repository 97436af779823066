import { DEFAULT_QUEUE } from '@interlude/core/internal';
import { DEFAULT_UNAVAILABLE_AFTER_MS } from '../bus-availability.js';
import { assertSubjectToken } from '../subjects.js';
import { type DeploymentSettings, readDeploymentSettings } from './deployment-settings.js';
import { type Environment, SettingsError, SettingsReader } from './environment-values.js';
import type { TraceExportSettings } from './trace-export.js';

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
  /** Set when traces are exported (an OTLP endpoint is configured). */
  traceExport: TraceExportSettings | undefined;
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
    traceExport: readTraceExport(reader),
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

/** The samplers the OpenTelemetry SDK knows by name (`OTEL_TRACES_SAMPLER`); it ignores any other. */
const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
];

/**
 * The standard OpenTelemetry variables for traces: exported when `OTEL_EXPORTER_OTLP_ENDPOINT`
 * or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is set and `OTEL_TRACES_EXPORTER` is not `none`, over
 * `OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL` (`http/protobuf`, the default, or `http/json`; gRPC is
 * not bundled). A sampler name the SDK would silently replace by its default is refused here.
 */
function readTraceExport(reader: SettingsReader): TraceExportSettings | undefined {
  const exporter = reader.text('OTEL_TRACES_EXPORTER');
  if (exporter === 'none') return undefined;
  if (exporter !== undefined && exporter !== 'otlp') {
    reader.problem('OTEL_TRACES_EXPORTER', `otlp or none, got ${JSON.stringify(exporter)}`);
  }
  const configured = ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_EXPORTER_OTLP_ENDPOINT'].some(
    (name) => reader.text(name) !== undefined,
  );
  if (!configured) return undefined;
  const protocolVariable =
    reader.text('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') === undefined
      ? 'OTEL_EXPORTER_OTLP_PROTOCOL'
      : 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL';
  const protocol = reader.text(protocolVariable) ?? 'http/protobuf';
  if (protocol !== 'http/protobuf' && protocol !== 'http/json') {
    reader.problem(protocolVariable, `http/protobuf or http/json, got ${JSON.stringify(protocol)}`);
  }
  const sampler = reader.text('OTEL_TRACES_SAMPLER');
  if (sampler !== undefined && !SAMPLERS.includes(sampler)) {
    reader.problem('OTEL_TRACES_SAMPLER', `one of ${SAMPLERS.join(', ')}, got ${JSON.stringify(sampler)}`);
  }
  return {
    protocol: protocol === 'http/json' ? 'http/json' : 'http/protobuf',
    captureContent: reader.text('OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT')?.toLowerCase() === 'true',
    openInference: ['1', 'true'].includes(reader.text('INTERLUDE_OPENINFERENCE')?.toLowerCase() ?? ''),
  };
}
