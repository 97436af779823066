import { InterludeError, type Runtime } from '@interlude/core';
import type { Telemetry } from '@interlude/core/internal';
import { type MeterProvider, metrics } from '@opentelemetry/api';
import { workerResource } from './worker-resource.js';

/** What a worker that exports metrics installs (the versions this package is tested with). */
export const METRICS_SDK = [
  '@interlude/telemetry',
  '@opentelemetry/sdk-metrics@2.12.1',
  '@opentelemetry/exporter-metrics-otlp-http@0.223.0',
  '@opentelemetry/resources@2.12.1',
];

/** The SDK meter provider the bin registered, exporting over OTLP. */
export interface MetricExport {
  readonly meterProvider: MeterProvider;
  /**
   * The runtime's telemetry when the bin exports no traces: the GenAI client metrics of every
   * model call, spans only to a tracer provider the module of agents registers itself.
   */
  untracedTelemetry(): Telemetry;
  /** Reports `interlude.input_requests.waiting`, read from `runtime.pending()`, until closed. */
  observeQuestionsWaiting(runtime: Runtime): { close(): Promise<void> };
  /** Exports what is left (the last job durations, the active jobs back at 0) and stops. */
  shutdown(): Promise<void>;
}

/**
 * Sets up the OpenTelemetry metrics SDK with the OTLP/HTTP exporter (JSON), which reads its
 * endpoint and headers from the standard `OTEL_EXPORTER_OTLP_*` variables, and registers it as
 * the global meter provider, so metrics the user's own module records go out too, as do the
 * GenAI client metrics and the questions waiting (`@interlude/telemetry`), traces exported or not. The resource is
 * `service.name` `interlude-worker` with a random `service.instance.id`, overridden by
 * `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES`. The SDK is imported only here, and its three
 * packages are optional peers of this one, so a worker that exports nothing neither installs nor
 * loads them; one told to export without them refuses to start (`missing_metrics_sdk`).
 */
export async function startMetricExport(options: { intervalMs: number }): Promise<MetricExport> {
  const [{ MeterProvider, PeriodicExportingMetricReader }, { OTLPMetricExporter }, resources, telemetryPackage] =
    await Promise.all([
      import('@opentelemetry/sdk-metrics'),
      import('@opentelemetry/exporter-metrics-otlp-http'),
      import('@opentelemetry/resources'),
      import('@interlude/telemetry'),
    ]).catch((error: unknown) => {
      throw new InterludeError(
        'missing_metrics_sdk',
        `OTEL_EXPORTER_OTLP_ENDPOINT asks the worker to export metrics, and that needs ${METRICS_SDK.join(', ')} installed beside @interlude/bus (or OTEL_METRICS_EXPORTER=none)`,
        { cause: error },
      );
    });
  const resource = workerResource(resources);
  const reader = new PeriodicExportingMetricReader({
    exporter: new OTLPMetricExporter(),
    exportIntervalMillis: options.intervalMs,
    exportTimeoutMillis: Math.min(options.intervalMs, 30_000),
  });
  const meterProvider = new MeterProvider({ resource, readers: [reader] });
  metrics.setGlobalMeterProvider(meterProvider);
  return {
    meterProvider,
    untracedTelemetry: () => telemetryPackage.openTelemetry({ meterProvider }),
    observeQuestionsWaiting(runtime) {
      const waiting = telemetryPackage.observeQuestionsWaiting(runtime, { meterProvider });
      return { close: async () => waiting.stop() };
    },
    shutdown: () => meterProvider.shutdown(),
  };
}
