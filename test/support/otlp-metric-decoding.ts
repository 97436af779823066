/**
 * OTLP/JSON metrics, decoded into one flat record per data point: what a test asserts on
 * (`interlude.worker.job.duration` counted 6 jobs with outcome `completed`), without walking the
 * resource → scope → metric → point nesting each time.
 *
 * @see https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding
 */

/** One data point as the receiver decoded it. */
export interface ReceivedMetricPoint {
  /** The metric's name, e.g. `interlude.worker.active_jobs`. */
  name: string;
  unit: string;
  kind: 'sum' | 'gauge' | 'histogram';
  attributes: Record<string, unknown>;
  /** Sums and gauges: the value. */
  value?: number;
  /** Histograms: how many values were recorded, and their sum. */
  count?: number;
  sum?: number;
  timeUnixNano: string;
  resource: Record<string, unknown>;
  scope: string;
}

interface WireKeyValue {
  key: string;
  value?: WireAnyValue;
}
interface WireAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
}
interface WireNumberPoint {
  attributes?: WireKeyValue[];
  timeUnixNano?: string | number;
  asInt?: string | number;
  asDouble?: number;
}
interface WireHistogramPoint {
  attributes?: WireKeyValue[];
  timeUnixNano?: string | number;
  count?: string | number;
  sum?: number;
}
interface WireMetric {
  name: string;
  unit?: string;
  sum?: { dataPoints?: WireNumberPoint[] };
  gauge?: { dataPoints?: WireNumberPoint[] };
  histogram?: { dataPoints?: WireHistogramPoint[] };
}
/** The body of a `POST /v1/metrics`. */
export interface MetricsExportRequest {
  resourceMetrics?: {
    resource?: { attributes?: WireKeyValue[] };
    scopeMetrics?: { scope?: { name?: string }; metrics?: WireMetric[] }[];
  }[];
}

export function decodeMetricsExport(request: MetricsExportRequest): ReceivedMetricPoint[] {
  return (request.resourceMetrics ?? []).flatMap((resourceMetrics) => {
    const resource = plainAttributes(resourceMetrics.resource?.attributes);
    return (resourceMetrics.scopeMetrics ?? []).flatMap((scopeMetrics) =>
      (scopeMetrics.metrics ?? []).flatMap((metric) =>
        decodeMetric(metric).map((point) => ({ ...point, resource, scope: scopeMetrics.scope?.name ?? '' })),
      ),
    );
  });
}

function decodeMetric(metric: WireMetric): Omit<ReceivedMetricPoint, 'resource' | 'scope'>[] {
  const base = { name: metric.name, unit: metric.unit ?? '' };
  const numbers = (kind: 'sum' | 'gauge', points: WireNumberPoint[] | undefined) =>
    (points ?? []).map((point) => ({
      ...base,
      kind,
      attributes: plainAttributes(point.attributes),
      value: point.asDouble ?? Number(point.asInt ?? 0),
      timeUnixNano: String(point.timeUnixNano ?? ''),
    }));
  if (metric.sum !== undefined) return numbers('sum', metric.sum.dataPoints);
  if (metric.gauge !== undefined) return numbers('gauge', metric.gauge.dataPoints);
  return (metric.histogram?.dataPoints ?? []).map((point) => ({
    ...base,
    kind: 'histogram' as const,
    attributes: plainAttributes(point.attributes),
    count: Number(point.count ?? 0),
    sum: point.sum ?? 0,
    timeUnixNano: String(point.timeUnixNano ?? ''),
  }));
}

function plainAttributes(attributes: WireKeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries(
    (attributes ?? []).map(({ key, value }) => [
      key,
      value?.stringValue ??
        value?.boolValue ??
        value?.doubleValue ??
        (value?.intValue === undefined ? undefined : Number(value.intValue)),
    ]),
  );
}
