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
  constructor(private readonly ledger: Ledger) {}

  onStart(_span: Span): void {}

  onEnd(span: ReadableSpan): void {
    if (spanText(span).includes(CANARY)) {
      void this.ledger.record({
        generation_id: String(span.attributes['interlude.generation_id'] ?? '-'),
        tool: 'LEAK',
        tool_call_id: `span ${span.name}`,
      });
    }
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** A tracer provider for a child process that writes any span carrying the canary to the ledger. */
export function canaryCheckingTracer(ledger: Ledger): BasicTracerProvider {
  return new BasicTracerProvider({ spanProcessors: [new CanarySpanProcessor(ledger)] });
}
