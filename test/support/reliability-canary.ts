import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { CANARY } from './reliability-agent.js';
import type { Ledger } from './reliability-ledger.js';

/** Everything of a span a tracing backend stores and shows: name, attributes, events, status, links. */
export function spanText(span: ReadableSpan): string {
  return JSON.stringify({
    name: span.name,
    attributes: span.attributes,
    events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })),
    status: span.status,
    links: span.links.map((link) => link.attributes),
  });
}

/** Checks every span as it ends, so a worker that is killed later has already reported its leaks. */
class CanarySpanProcessor implements SpanProcessor {
  ended = 0;
  readonly writes = new Set<Promise<void>>();

  constructor(private readonly ledger: Ledger) {}

  onStart(_span: Span): void {}

  onEnd(span: ReadableSpan): void {
    this.ended += 1;
    if (spanText(span).includes(CANARY)) {
      const write: Promise<void> = this.ledger.record({
        generation_id: String(span.attributes['interlude.generation_id'] ?? '-'),
        tool: 'LEAK',
        tool_call_id: `span ${span.name}`,
      });
      this.writes.add(write);
      const forget = () => void this.writes.delete(write);
      write.then(forget, forget);
    }
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * A tracer provider for a child process that writes any span carrying the canary to the ledger,
 * and counts the spans it checked (so a test knows the check saw real spans).
 */
export function canaryCheckingTracer(ledger: Ledger): {
  tracerProvider: BasicTracerProvider;
  checkedSpans(): number;
  /** Resolves once every leak found so far is in the ledger. */
  settled(): Promise<void>;
} {
  const processor = new CanarySpanProcessor(ledger);
  return {
    tracerProvider: new BasicTracerProvider({ spanProcessors: [processor] }),
    checkedSpans: () => processor.ended,
    settled: async () => {
      await Promise.all(processor.writes);
    },
  };
}
