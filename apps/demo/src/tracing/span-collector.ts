import type { Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';

const GENERATION_ID = 'interlude.generation_id';
const MAX_TRACES = 500;

/**
 * A span processor that keeps finished spans in memory, grouped by the generation whose run
 * started their trace, so the page can draw each generation's trace without a collector. Each
 * run of a generation (the first, and one per resume) is its own trace, linked to the paused one;
 * a delegated agent's generation nests inside its caller's trace.
 */
export class SpanCollector implements SpanProcessor {
  readonly #generationOfTrace = new Map<string, string>();
  readonly #spansOfTrace = new Map<string, ReadableSpan[]>();

  onStart(span: Span, _parentContext: Context): void {
    const { traceId } = span.spanContext();
    const generationId = span.attributes[GENERATION_ID];
    // The first span of a trace that names a generation is its root: a nested (delegated)
    // generation starts later in the same trace and must not take it over.
    if (typeof generationId === 'string' && !this.#generationOfTrace.has(traceId)) {
      this.#generationOfTrace.set(traceId, generationId);
      this.#forgetOldest();
    }
  }

  onEnd(span: ReadableSpan): void {
    const { traceId } = span.spanContext();
    if (!this.#generationOfTrace.has(traceId)) return;
    const spans = this.#spansOfTrace.get(traceId) ?? [];
    spans.push(span);
    this.#spansOfTrace.set(traceId, spans);
  }

  /** The finished spans of each run of a generation, one array per trace, oldest run first. */
  runsOf(generationId: string): ReadableSpan[][] {
    const runs: ReadableSpan[][] = [];
    for (const [traceId, owner] of this.#generationOfTrace) {
      const spans = this.#spansOfTrace.get(traceId);
      if (owner === generationId && spans !== undefined) runs.push(spans);
    }
    return runs;
  }

  async forceFlush(): Promise<void> {}

  async shutdown(): Promise<void> {
    this.#generationOfTrace.clear();
    this.#spansOfTrace.clear();
  }

  #forgetOldest(): void {
    if (this.#generationOfTrace.size <= MAX_TRACES) return;
    const oldest = this.#generationOfTrace.keys().next().value;
    if (oldest === undefined) return;
    this.#generationOfTrace.delete(oldest);
    this.#spansOfTrace.delete(oldest);
  }
}
