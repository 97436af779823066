import type { GenerationTrace, GenerationTraceInfo, Telemetry } from '@interlude/core/internal';
import { isSpanContextValid, type MeterProvider, metrics, type TracerProvider, trace } from '@opentelemetry/api';
import { currentContext } from './active-context.js';
import { conversationIn } from './conversation-context.js';
import { GenAiMetrics } from './genai-metrics.js';
import { GenerationSpan } from './generation-span.js';
import { INSTRUMENTATION_SCOPE } from './semconv.js';
import { formatTraceparent } from './traceparent.js';

export interface OpenTelemetryOptions {
  /** Where spans go. Default: the global tracer provider (what `NodeSDK` or `.register()` set). */
  tracerProvider?: TracerProvider | undefined;
  /**
   * Record tool arguments and results on `execute_tool` spans. Off by default: they are the
   * user's data. Core scrubs secret answers from them either way.
   */
  captureContent?: boolean | undefined;
  /**
   * Add OpenInference's names beside the GenAI ones (`openinference.span.kind`, `session.id`,
   * `llm.*`, and with `captureContent` `input.value`, `output.value`, `llm.input_messages.*`…), so
   * Arize Phoenix and Arize AX show agents, messages and sessions without a converter. Off by default.
   */
  openInference?: boolean | undefined;
  /**
   * Keep the spans a model SDK's own instrumentation starts inside a `chat` span
   * (`@anthropic-ai/sdk`'s `anthropic.messages.create`, an instrumented HTTP client's request).
   * Off by default: the model call runs in a context with tracing suppressed, since those spans
   * repeat the `chat` span's `gen_ai.usage.*` and token dashboards would count every call twice.
   */
  sdkSpans?: boolean | undefined;
  /**
   * Where the GenAI client metrics (`gen_ai.client.operation.duration`, `gen_ai.client.token.usage`)
   * and `interlude.input_requests.waiting` go. Default: the global meter provider.
   */
  meterProvider?: MeterProvider | undefined;
}

/** Core's `Telemetry`, plus what a caller enqueuing a job needs to carry its trace and conversation along. */
export interface OpenTelemetryTelemetry extends Telemetry {
  /** The W3C `traceparent` of the active span (a job's NATS header), if there is one. */
  currentTraceparent(): string | undefined;
  /** The `gen_ai.conversation.id` of the generation running in the active context, if one is. */
  currentConversationId(): string | undefined;
}

/**
 * Turns core's lifecycle hooks into OpenTelemetry spans following the GenAI semantic
 * conventions: an `invoke_agent <agent>` root per run, a `chat <model>` child per model call,
 * an `execute_tool <tool>` child per tool call. Pass it to `createRuntime({ telemetry })`.
 * Without a `tracerProvider` it uses the global one, so spans go wherever the application
 * already exports its traces.
 *
 * @example
 * const runtime = createRuntime({ telemetry: openTelemetry() });
 * const inTests = openTelemetry({ tracerProvider: new BasicTracerProvider({ spanProcessors }) });
 */
export function openTelemetry(options: OpenTelemetryOptions = {}): OpenTelemetryTelemetry {
  const tracerProvider = options.tracerProvider ?? trace.getTracerProvider();
  const settings = {
    tracer: tracerProvider.getTracer(INSTRUMENTATION_SCOPE),
    captureContent: options.captureContent ?? false,
    openInference: options.openInference ?? false,
    sdkSpans: options.sdkSpans ?? false,
    metrics: new GenAiMetrics(options.meterProvider ?? metrics.getMeterProvider()),
  };
  return {
    startGeneration(info: GenerationTraceInfo): GenerationTrace {
      return new GenerationSpan(settings, info);
    },
    currentTraceparent(): string | undefined {
      const spanContext = trace.getSpanContext(currentContext());
      return spanContext !== undefined && isSpanContextValid(spanContext) ? formatTraceparent(spanContext) : undefined;
    },
    currentConversationId(): string | undefined {
      return conversationIn(currentContext());
    },
  };
}
