import type { Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';

const GENERATION_ID = 'interlude.generation_id';
const MAX_TRACES = 500;

/**
 * A span processor that keeps finished spans in memory, grouped by the generations that ran in
 * their trace, so the page can draw each generation's trace without a collector. Each run of a
 * generation (the first, and one per resume) is its own trace, linked to the paused one; a
 * delegated agent's generation nests inside its caller's trace, which both of them show.
 */
export class SpanCollector implements SpanProcessor {
  /** The generations whose root span is in each trace, by trace id, oldest trace first. */
  readonly #generationsOfTrace = new Map<string, Set<string>>();
  readonly #spansOfTrace = new Map<string, ReadableSpan[]>();

  onStart(span: Span, _parentContext: Context): void {
    const { traceId } = span.spanContext();
    const generationId = span.attributes[GENERATION_ID];
    if (typeof generationId !== 'string') return;
    const generations = this.#generationsOfTrace.get(traceId);
    if (generations !== undefined) {
      generations.add(generationId);
      return;
    }
    this.#generationsOfTrace.set(traceId, new Set([generationId]));
    this.#forgetOldest();
  }

  onEnd(span: ReadableSpan): void {
    const { traceId } = span.spanContext();
    if (!this.#generationsOfTrace.has(traceId)) return;
    const spans = this.#spansOfTrace.get(traceId) ?? [];
    spans.push(span);
    this.#spansOfTrace.set(traceId, spans);
  }

  /** The finished spans of each run of a generation, one array per trace, oldest run first. */
  runsOf(generationId: string): ReadableSpan[][] {
    const runs: ReadableSpan[][] = [];
    for (const [traceId, generations] of this.#generationsOfTrace) {
      const spans = this.#spansOfTrace.get(traceId);
      if (generations.has(generationId) && spans !== undefined) runs.push(spans);
    }
    return runs;
  }

  async forceFlush(): Promise<void> {}

  async shutdown(): Promise<void> {
    this.#generationsOfTrace.clear();
    this.#spansOfTrace.clear();
  }

  #forgetOldest(): void {
    if (this.#generationsOfTrace.size <= MAX_TRACES) return;
    const oldest = this.#generationsOfTrace.keys().next().value;
    if (oldest === undefined) return;
    this.#generationsOfTrace.delete(oldest);
    this.#spansOfTrace.delete(oldest);
  }
}
