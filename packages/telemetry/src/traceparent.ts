import { type SpanContext, TraceFlags } from '@opentelemetry/api';

/**
 * W3C Trace Context `traceparent` headers, written and read by hand. `propagation.inject()`
 * would need a globally registered propagator, which a user who passes their own
 * `tracerProvider` may not have; the header is small enough to own.
 *
 * @see https://www.w3.org/TR/trace-context/#traceparent-header
 */

const VERSION_00 = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
/** Future versions may append fields after the flags; we read the four we know. */
const FUTURE_VERSION = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ALL_ZEROS = /^0+$/;

/** `00-<trace id>-<span id>-<flags>` for a span context (only the sampled bit is carried). */
export function formatTraceparent(spanContext: SpanContext): string {
  const flags = spanContext.traceFlags & TraceFlags.SAMPLED ? '01' : '00';
  return `00-${spanContext.traceId}-${spanContext.spanId}-${flags}`;
}

/**
 * The remote span context a `traceparent` names, or `undefined` for anything malformed
 * (wrong length, upper-case hex, all-zero ids, version `ff`): a bad header in a checkpoint
 * or a job must never stop a generation, it only loses the link.
 */
export function parseTraceparent(header: string | undefined): SpanContext | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  const parts = matchTraceparent(value);
  if (parts === undefined) return undefined;
  const { traceId, spanId, flags } = parts;
  if (ALL_ZEROS.test(traceId) || ALL_ZEROS.test(spanId)) return undefined;
  return { traceId, spanId, traceFlags: Number.parseInt(flags, 16) & TraceFlags.SAMPLED, isRemote: true };
}

function matchTraceparent(value: string): { traceId: string; spanId: string; flags: string } | undefined {
  const current = VERSION_00.exec(value);
  if (current) return { traceId: current[1]!, spanId: current[2]!, flags: current[3]! };
  const future = FUTURE_VERSION.exec(value);
  if (!future || future[1] === '00' || future[1] === 'ff') return undefined;
  return { traceId: future[2]!, spanId: future[3]!, flags: future[4]! };
}
