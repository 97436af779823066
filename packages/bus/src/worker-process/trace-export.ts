import { InterludeError } from '@interlude/core';
import type { Telemetry } from '@interlude/core/internal';
import type { MeterProvider } from '@opentelemetry/api';
import { workerResource } from './worker-resource.js';

/** What a worker that exports traces installs (the versions this package is tested with). */
export const TRACES_SDK = [
  '@interlude/telemetry',
  '@opentelemetry/sdk-trace-node@2.12.1',
  '@opentelemetry/exporter-trace-otlp-proto@0.223.1',
  '@opentelemetry/resources@2.12.1',
];

/** How the bin exports traces, from the standard variables (`readTraceExport`). */
export interface TraceExportSettings {
  /** `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL` / `OTEL_EXPORTER_OTLP_PROTOCOL`: protobuf unless `http/json`. */
  protocol: 'http/protobuf' | 'http/json';
  /** `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`: `openTelemetry({ captureContent })`. */
  captureContent: boolean;
  /** `INTERLUDE_OPENINFERENCE=1`: `openTelemetry({ openInference })`. */
  openInference: boolean;
}

/** The telemetry the bin's runtime traces with, and the provider to flush on exit. */
export interface TraceExport {
  readonly telemetry: Telemetry;
  /** Exports the spans still batched and stops. */
  shutdown(): Promise<void>;
}

/**
 * Sets up the OpenTelemetry trace SDK as an application would (`NodeTracerProvider.register()`:
 * the global tracer provider, context manager and W3C propagator, so the spans of the user's own
 * instrumented libraries join in), with `secretScrubbingProcessor()` first and a batch processor
 * on the OTLP exporter, which reads `OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT` and `_HEADERS` itself;
 * the SDK reads `OTEL_TRACES_SAMPLER` / `_ARG`. The resource is `service.name` `interlude-worker`
 * with a random `service.instance.id`, overridden by `OTEL_SERVICE_NAME` and
 * `OTEL_RESOURCE_ATTRIBUTES`. A job's spans join the trace of whoever enqueued it (the job's
 * `traceparent` header). The SDK is optional: imported only here, refused with
 * `missing_traces_sdk` (naming what to install) when asked for without it.
 */
export async function startTraceExport(
  settings: TraceExportSettings,
  meterProvider: MeterProvider | undefined,
): Promise<TraceExport> {
  const exporterPackage =
    settings.protocol === 'http/json'
      ? '@opentelemetry/exporter-trace-otlp-http'
      : '@opentelemetry/exporter-trace-otlp-proto';
  const [{ NodeTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, resources, telemetryPackage] =
    await Promise.all([
      import('@opentelemetry/sdk-trace-node'),
      settings.protocol === 'http/json'
        ? import('@opentelemetry/exporter-trace-otlp-http')
        : import('@opentelemetry/exporter-trace-otlp-proto'),
      import('@opentelemetry/resources'),
      import('@interlude/telemetry'),
    ]).catch((error: unknown) => {
      const needed = TRACES_SDK.map((name) => (name.includes('otlp-proto') ? exporterPackage : name));
      throw new InterludeError(
        'missing_traces_sdk',
        `OTEL_EXPORTER_OTLP_ENDPOINT asks the worker to export traces, and that needs ${needed.join(', ')} installed beside @interlude/bus (or OTEL_TRACES_EXPORTER=none)`,
        { cause: error },
      );
    });
  const resource = workerResource(resources);
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: [telemetryPackage.secretScrubbingProcessor(), new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  provider.register();
  return {
    telemetry: telemetryPackage.openTelemetry({
      tracerProvider: provider,
      captureContent: settings.captureContent,
      openInference: settings.openInference,
      // The GenAI client metrics go out with the worker's own, when it exports metrics.
      ...(meterProvider !== undefined && { meterProvider }),
    }),
    shutdown: () => provider.shutdown(),
  };
}
