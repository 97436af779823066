import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  type Span,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { secretScrubbingProcessor } from '../secret-scrubbing-processor.js';

/** A tracer provider that keeps finished spans in memory, for tests and demos. */
export interface InMemoryTracing {
  /** Pass as `openTelemetry({ tracerProvider })`; nothing global is registered. */
  readonly tracerProvider: BasicTracerProvider;
  readonly exporter: InMemorySpanExporter;
  /** Spans ended so far, in the order they ended. */
  finishedSpans(): ReadableSpan[];
  /** Names of spans started and not yet ended: empty once every generation has ended. */
  openSpanNames(): string[];
  reset(): void;
  shutdown(): Promise<void>;
}

/**
 * A `BasicTracerProvider` with a synchronous in-memory exporter, so a test reads every span
 * the moment it ends and never touches the global OpenTelemetry registration other tests share.
 * Set up as production should be: `secretScrubbingProcessor()` first.
 *
 * @example
 * const tracing = createInMemoryTracing();
 * const telemetry = openTelemetry({ tracerProvider: tracing.tracerProvider });
 */
export function createInMemoryTracing(): InMemoryTracing {
  const exporter = new InMemorySpanExporter();
  const openSpans = new OpenSpanTracker();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [secretScrubbingProcessor(), openSpans, new SimpleSpanProcessor(exporter)],
  });
  return {
    tracerProvider,
    exporter,
    finishedSpans: () => exporter.getFinishedSpans(),
    openSpanNames: () => [...openSpans.open].map((span) => span.name),
    reset: () => exporter.reset(),
    shutdown: () => tracerProvider.shutdown(),
  };
}

/** Remembers spans between start and end, so a test can prove nothing was left open. */
class OpenSpanTracker implements SpanProcessor {
  readonly open = new Set<Span | ReadableSpan>();

  onStart(span: Span): void {
    this.open.add(span);
  }

  onEnd(span: ReadableSpan): void {
    this.open.delete(span);
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}
