import type { HrTime } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { GenerationRun, ParentGeneration } from './span-collector.js';

/** One span as the page draws it: offsets from the start of its run, in milliseconds. */
export interface SpanNode {
  name: string;
  spanId: string;
  startMs: number;
  durationMs: number;
  status: 'ok' | 'error' | 'unset';
  attributes: Record<string, string | number | boolean>;
  children: SpanNode[];
}

/** One run of a generation: a trace with its root spans (normally one, `invoke_agent <agent>`). */
export interface TraceRun {
  traceId: string;
  durationMs: number;
  roots: SpanNode[];
  /** The generation that delegated this one: its run's trace holds this run's spans and its own. */
  parent?: ParentGeneration;
}

/**
 * Builds the span tree of each run from finished spans: children under their parent, in start
 * order, times relative to the run's first span. A span whose parent never finished (or lives in
 * another process) is drawn as a root rather than dropped.
 */
export function buildTraceRuns(runs: readonly GenerationRun[]): TraceRun[] {
  return runs.map(({ spans, parent }) => {
    const origin = Math.min(...spans.map((span) => toMs(span.startTime)));
    const nodes = new Map<string, SpanNode>();
    for (const span of spans) nodes.set(span.spanContext().spanId, toNode(span, origin));
    const roots: SpanNode[] = [];
    for (const span of [...spans].sort((left, right) => toMs(left.startTime) - toMs(right.startTime))) {
      const node = nodes.get(span.spanContext().spanId) as SpanNode;
      const parent = nodes.get(span.parentSpanContext?.spanId ?? '');
      if (parent === undefined) roots.push(node);
      else parent.children.push(node);
    }
    const end = Math.max(...spans.map((span) => toMs(span.endTime)));
    const traceId = spans[0]?.spanContext().traceId ?? '';
    return { traceId, durationMs: round(end - origin), roots, ...(parent && { parent }) };
  });
}

function toNode(span: ReadableSpan, origin: number): SpanNode {
  const attributes: SpanNode['attributes'] = {};
  for (const [key, value] of Object.entries(span.attributes)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') attributes[key] = value;
    else if (Array.isArray(value)) attributes[key] = value.join(', ');
  }
  return {
    name: span.name,
    spanId: span.spanContext().spanId,
    startMs: round(toMs(span.startTime) - origin),
    durationMs: round(toMs(span.endTime) - toMs(span.startTime)),
    status: span.status.code === 2 ? 'error' : span.status.code === 1 ? 'ok' : 'unset',
    attributes,
    children: [],
  };
}

function toMs(time: HrTime): number {
  return time[0] * 1000 + time[1] / 1e6;
}

function round(milliseconds: number): number {
  return Math.round(milliseconds * 100) / 100;
}
