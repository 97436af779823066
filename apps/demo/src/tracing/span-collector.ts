import type { Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';

const GENERATION_ID = 'interlude.generation_id';
const AGENT = 'gen_ai.agent.name';
const ACTION = 'interlude.action';
const MAX_TRACES = 500;

/** The generation whose run a delegated generation ran inside. */
export interface ParentGeneration {
  generationId: string;
  agent: string;
  action: string;
}

/** The finished spans of one run of a generation, and the generation that delegated it, if one did. */
export interface GenerationRun {
  spans: ReadableSpan[];
  parent?: ParentGeneration;
}

/** What the collector keeps of one trace. */
interface TraceRecord {
  /** For each span started in the trace, the generations enclosing it, outermost first. */
  enclosing: Map<string, readonly string[]>;
  /** Each generation whose root span is in the trace: its agent, action and the generation around it. */
  generations: Map<string, ParentGeneration & { parent: string | undefined }>;
  spans: ReadableSpan[];
}

/**
 * A span processor that keeps finished spans in memory, grouped by the generations that ran in
 * their trace, so the page can draw each generation's trace without a collector. Each run of a
 * generation (the first, and one per resume) is its own trace, linked to the paused one; a
 * delegated agent's generation nests inside its caller's trace. The caller's runs show the whole
 * tree; the delegated generation's show only its own spans and name the caller whose run holds them.
 */
export class SpanCollector implements SpanProcessor {
  /** By trace id, oldest trace first. */
  readonly #traces = new Map<string, TraceRecord>();

  onStart(span: Span, _parentContext: Context): void {
    const { traceId, spanId } = span.spanContext();
    const generationId = span.attributes[GENERATION_ID];
    let record = this.#traces.get(traceId);
    if (record === undefined) {
      // A trace matters once a generation starts in it.
      if (typeof generationId !== 'string') return;
      record = { enclosing: new Map(), generations: new Map(), spans: [] };
      this.#traces.set(traceId, record);
      this.#forgetOldest();
    }
    const around = record.enclosing.get(span.parentSpanContext?.spanId ?? '') ?? [];
    if (typeof generationId !== 'string') {
      record.enclosing.set(spanId, around);
      return;
    }
    record.enclosing.set(spanId, [...around, generationId]);
    record.generations.set(generationId, {
      generationId,
      agent: String(span.attributes[AGENT] ?? ''),
      action: String(span.attributes[ACTION] ?? ''),
      parent: around.at(-1),
    });
  }

  onEnd(span: ReadableSpan): void {
    this.#traces.get(span.spanContext().traceId)?.spans.push(span);
  }

  /** Each run of a generation, oldest first: its own spans (a delegated generation's callers' left out). */
  runsOf(generationId: string): GenerationRun[] {
    const runs: GenerationRun[] = [];
    for (const record of this.#traces.values()) {
      const generation = record.generations.get(generationId);
      if (generation === undefined) continue;
      const spans = record.spans.filter((span) =>
        record.enclosing.get(span.spanContext().spanId)?.includes(generationId),
      );
      if (spans.length === 0) continue;
      const parent = generation.parent === undefined ? undefined : record.generations.get(generation.parent);
      runs.push({
        spans,
        ...(parent && { parent: { generationId: parent.generationId, agent: parent.agent, action: parent.action } }),
      });
    }
    return runs;
  }

  async forceFlush(): Promise<void> {}

  async shutdown(): Promise<void> {
    this.#traces.clear();
  }

  #forgetOldest(): void {
    if (this.#traces.size <= MAX_TRACES) return;
    const oldest = this.#traces.keys().next().value;
    if (oldest !== undefined) this.#traces.delete(oldest);
  }
}
