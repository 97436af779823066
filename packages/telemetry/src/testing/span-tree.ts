import { type Attributes, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';

/** One span as a user reads it in a trace view: ids left out so a whole tree can be compared. */
export interface SpanNode {
  name: string;
  kind: keyof typeof SpanKind;
  attributes: Attributes;
  status: { code: keyof typeof SpanStatusCode; message?: string };
  events: { name: string; attributes: Attributes }[];
  links: { traceId: string; spanId: string; attributes: Attributes }[];
  children: SpanNode[];
}

/**
 * Finished spans as the trees a trace viewer would draw: roots are spans whose parent is not
 * among `spans` (a remote caller, or none), children in start order. A test can then assert a
 * whole trace, names and attribute objects included, with one `toEqual`.
 */
export function spanTree(spans: readonly ReadableSpan[]): SpanNode[] {
  const byStart = [...spans].sort((left, right) => compareTimes(left.startTime, right.startTime));
  const knownIds = new Set(byStart.map((span) => span.spanContext().spanId));
  const childrenOf = (parentId: string | undefined): SpanNode[] =>
    byStart
      .filter((span) => {
        const spanParent = span.parentSpanContext?.spanId;
        return parentId === undefined ? spanParent === undefined || !knownIds.has(spanParent) : spanParent === parentId;
      })
      .map((span) => toNode(span, childrenOf(span.spanContext().spanId)));
  return childrenOf(undefined);
}

function toNode(span: ReadableSpan, children: SpanNode[]): SpanNode {
  return {
    name: span.name,
    kind: SpanKind[span.kind] as keyof typeof SpanKind,
    attributes: { ...span.attributes },
    status: {
      code: SpanStatusCode[span.status.code] as keyof typeof SpanStatusCode,
      ...(span.status.message === undefined ? {} : { message: span.status.message }),
    },
    events: span.events.map((event) => ({ name: event.name, attributes: { ...event.attributes } })),
    links: span.links.map((link) => ({
      traceId: link.context.traceId,
      spanId: link.context.spanId,
      attributes: { ...link.attributes },
    })),
    children,
  };
}

function compareTimes(left: readonly [number, number], right: readonly [number, number]): number {
  return left[0] - right[0] || left[1] - right[1];
}
