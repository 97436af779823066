import { TraceFlags } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { formatTraceparent, parseTraceparent } from './traceparent.js';

const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
const spanId = '00f067aa0ba902b7';

describe('traceparent', () => {
  it('writes the W3C header and reads it back as a remote span context', () => {
    const header = formatTraceparent({ traceId, spanId, traceFlags: TraceFlags.SAMPLED });
    expect(header).toBe(`00-${traceId}-${spanId}-01`);
    expect(parseTraceparent(header)).toEqual({ traceId, spanId, traceFlags: TraceFlags.SAMPLED, isRemote: true });
  });

  it('keeps an unsampled flag unsampled', () => {
    const header = formatTraceparent({ traceId, spanId, traceFlags: TraceFlags.NONE });
    expect(header).toBe(`00-${traceId}-${spanId}-00`);
    expect(parseTraceparent(header)?.traceFlags).toBe(TraceFlags.NONE);
  });

  it('reads a future version by its first four fields', () => {
    expect(parseTraceparent(`cc-${traceId}-${spanId}-01-what-comes-next`)).toMatchObject({ traceId, spanId });
  });

  it.each([
    ['undefined', undefined],
    ['empty', ''],
    ['upper-case hex', `00-${traceId.toUpperCase()}-${spanId}-01`],
    ['short trace id', `00-${traceId.slice(1)}-${spanId}-01`],
    ['all-zero trace id', `00-${'0'.repeat(32)}-${spanId}-01`],
    ['all-zero span id', `00-${traceId}-${'0'.repeat(16)}-01`],
    ['version ff', `ff-${traceId}-${spanId}-01`],
    ['version 00 with extra fields', `00-${traceId}-${spanId}-01-extra`],
    ['garbage', 'not a traceparent'],
  ])('refuses %s', (_label, header) => {
    expect(parseTraceparent(header)).toBeUndefined();
  });
});
