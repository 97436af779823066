import { secretScrubbingProcessor } from '@interlude/telemetry';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type ReadableSpan,
  type Span,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';

/** What a NATS + OTel cycle checks of its spans, and the provider its telemetry writes to. */
export interface BenchTracing {
  readonly tracerProvider: BasicTracerProvider;
  /** `invoke_agent` spans ended since the last `reset()`. */
  rootsEnded(): number;
  /** Names of spans started and not yet ended. */
  openSpanNames(): string[];
  reset(): void;
  shutdown(): Promise<void>;
}

/**
 * Tracing as the docs tell production to set it up: `secretScrubbingProcessor()` first, then a
 * `BatchSpanProcessor`, which exports spans in batches off the generation's path (here to an
 * exporter that only counts them). A processor of its own counts the root spans ended and
 * remembers the spans still open, for the per-cycle check. (`createInMemoryTracing()` exports
 * each span as it ends, synchronously, which a test wants and a deployment does not.)
 */
export function createBenchTracing(): BenchTracing {
  const watcher = new SpanWatcher();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [secretScrubbingProcessor(), watcher, new BatchSpanProcessor(new CountingExporter())],
  });
  return {
    tracerProvider,
    rootsEnded: () => watcher.roots,
    openSpanNames: () => [...watcher.open].map((span) => span.name),
    reset: () => {
      watcher.roots = 0;
    },
    shutdown: () => tracerProvider.shutdown(),
  };
}

class SpanWatcher implements SpanProcessor {
  readonly open = new Set<Span | ReadableSpan>();
  roots = 0;

  onStart(span: Span): void {
    this.open.add(span);
  }

  onEnd(span: ReadableSpan): void {
    this.open.delete(span);
    if (span.name.startsWith('invoke_agent')) this.roots += 1;
  }

  async forceFlush(): Promise<void> {}

  async shutdown(): Promise<void> {}
}

/** Takes every batch and keeps nothing: what an exporter costs on the cycle's path is the batch hand-off. */
class CountingExporter implements SpanExporter {
  exported = 0;

  export(spans: ReadableSpan[], resultCallback: (result: { code: number }) => void): void {
    this.exported += spans.length;
    resultCallback({ code: 0 });
  }

  async shutdown(): Promise<void> {}
}
