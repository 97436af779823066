import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { decodeMetricsExport, type MetricsExportRequest, type ReceivedMetricPoint } from './otlp-metric-decoding.js';
import { decodeProtobufTraces } from './otlp-protobuf.js';

export type { ReceivedMetricPoint } from './otlp-metric-decoding.js';

/**
 * A small OTLP/HTTP receiver for traces and metrics in the JSON encoding, the one
 * `@opentelemetry/exporter-trace-otlp-http` and `…-metrics-otlp-http` send, and for traces in
 * protobuf, the one `@opentelemetry/exporter-trace-otlp-proto` sends (`otlp-protobuf.ts` decodes
 * it). It stands in for Jaeger, Tempo, Phoenix, Prometheus or a collector (Debian ships none) so
 * tests and the demo can look at what a real exporter really sent. Protobuf metrics get 415.
 *
 * @see https://opentelemetry.io/docs/specs/otlp/#otlphttp
 */
export interface OtlpReceiver {
  /** Base URL, what `OTEL_EXPORTER_OTLP_ENDPOINT` takes (the exporter appends `/v1/traces`). */
  readonly url: string;
  /** Full traces URL, what `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or the exporter's `url` takes. */
  readonly tracesUrl: string;
  /** Every span received so far, in arrival order. */
  spans(): ReceivedSpan[];
  /** Headers of every export request, in order (to check `OTEL_EXPORTER_OTLP_HEADERS`). */
  requestHeaders(): IncomingHttpHeaders[];
  /**
   * The path, content type and body (gunzipped) of every export request, in order: which encoding
   * each signal used, and every byte that left, for a canary to search.
   */
  exportsReceived(): ReceivedExport[];
  /** Resolves once `count` spans have arrived; rejects after `timeoutMs`. */
  waitForSpans(count: number, timeoutMs?: number): Promise<ReceivedSpan[]>;
  /** Every metric data point received so far (each export repeats cumulative points), in arrival order. */
  metricPoints(): ReceivedMetricPoint[];
  /** Resolves with the first point `matches` accepts, once one has arrived; rejects after `timeoutMs`. */
  waitForMetric(matches: (point: ReceivedMetricPoint) => boolean, timeoutMs?: number): Promise<ReceivedMetricPoint>;
  clear(): void;
  close(): Promise<void>;
}

/** One export request as it arrived. */
export interface ReceivedExport {
  path: string;
  contentType: string;
  body: Buffer;
}

/** One span as the receiver decoded it: ids in hex, attribute values as plain JS values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Undefined for a root span. */
  parentSpanId: string | undefined;
  name: string;
  kind: 'UNSPECIFIED' | 'INTERNAL' | 'SERVER' | 'CLIENT' | 'PRODUCER' | 'CONSUMER';
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: Record<string, unknown>;
  events: { name: string; attributes: Record<string, unknown> }[];
  links: { traceId: string; spanId: string; attributes: Record<string, unknown> }[];
  status: { code: 'UNSET' | 'OK' | 'ERROR'; message?: string };
  /** The resource's attributes (`service.name`, …). */
  resource: Record<string, unknown>;
  /** The instrumentation scope name (`@interlude/telemetry` for ours). */
  scope: string;
}

/**
 * Starts the receiver on 127.0.0.1 (a free port unless `port` is given).
 *
 * @example
 * const receiver = await startOtlpReceiver();
 * const exporter = new OTLPTraceExporter({ url: receiver.tracesUrl });
 * // … run something traced, flush …
 * const spans = await receiver.waitForSpans(3);
 * await receiver.close();
 */
export async function startOtlpReceiver(options: { port?: number } = {}): Promise<OtlpReceiver> {
  let received: ReceivedSpan[] = [];
  let points: ReceivedMetricPoint[] = [];
  let headers: IncomingHttpHeaders[] = [];
  let exports: ReceivedExport[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((request, response) => {
    handleExport(request, response)
      .then((exported) => {
        if (exported === undefined) return;
        headers.push(request.headers);
        exports.push({
          path: request.url ?? '',
          contentType: String(request.headers['content-type'] ?? ''),
          body: exported.body,
        });
        if ('spans' in exported) received.push(...exported.spans);
        else points.push(...exported.points);
        for (const wake of waiters) wake();
      })
      .catch((error: unknown) => reply(response, 400, { error: String(error) }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  /** Resolves with what `found` returns once it returns something, checked on every export; rejects after `timeoutMs`. */
  const waitFor = <T>(found: () => T | undefined, timeoutMs: number, failure: () => string): Promise<T> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const value = found();
        if (value === undefined) return;
        cleanUp();
        resolve(value);
      };
      const timer = setTimeout(() => {
        cleanUp();
        reject(new Error(failure()));
      }, timeoutMs);
      const cleanUp = (): void => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });

  return {
    url,
    tracesUrl: `${url}/v1/traces`,
    spans: () => [...received],
    requestHeaders: () => [...headers],
    exportsReceived: () => [...exports],
    waitForSpans(count, timeoutMs = 5_000) {
      return waitFor(
        () => (received.length >= count ? [...received] : undefined),
        timeoutMs,
        () => `OTLP receiver got ${received.length} spans, expected ${count}, in ${timeoutMs} ms`,
      );
    },
    metricPoints: () => [...points],
    waitForMetric(matches, timeoutMs = 10_000) {
      return waitFor(
        () => points.find(matches),
        timeoutMs,
        () =>
          `OTLP receiver got no matching metric point in ${timeoutMs} ms (got: ${[...new Set(points.map((point) => point.name))].join(', ') || 'none'})`,
      );
    },
    clear() {
      received = [];
      points = [];
      headers = [];
      exports = [];
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** Answers one request; resolves to the spans or metric points of a valid export, undefined otherwise. */
async function handleExport(
  request: IncomingMessage,
  response: ServerResponse,
): Promise<(({ spans: ReceivedSpan[] } | { points: ReceivedMetricPoint[] }) & { body: Buffer }) | undefined> {
  const body = await readBody(request);
  if (request.method !== 'POST' || (request.url !== '/v1/traces' && request.url !== '/v1/metrics')) {
    reply(response, 404, { error: 'only POST /v1/traces and /v1/metrics are served' });
    return undefined;
  }
  const contentType = String(request.headers['content-type'] ?? '');
  if (contentType.startsWith('application/x-protobuf') && request.url === '/v1/traces') {
    const decoded = decodeProtobufTraces(body);
    // An empty ExportTraceServiceResponse: zero bytes of protobuf.
    response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    return { spans: decodeExport(decoded as ExportRequest), body };
  }
  if (!contentType.startsWith('application/json')) {
    reply(response, 415, { error: 'only OTLP/JSON, and OTLP/protobuf for traces, are supported' });
    return undefined;
  }
  const parsed = JSON.parse(body.toString('utf8')) as unknown;
  reply(response, 200, {});
  return request.url === '/v1/metrics'
    ? { points: decodeMetricsExport(parsed as MetricsExportRequest), body }
    : { spans: decodeExport(parsed as ExportRequest), body };
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  return request.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body;
}

function reply(response: ServerResponse, status: number, body: object): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

interface KeyValue {
  key: string;
  value?: AnyValue;
}
interface AnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  bytesValue?: string;
  arrayValue?: { values?: AnyValue[] };
  kvlistValue?: { values?: KeyValue[] };
}
interface WireSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind?: number | string;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: KeyValue[];
  events?: { name: string; attributes?: KeyValue[] }[];
  links?: { traceId: string; spanId: string; attributes?: KeyValue[] }[];
  status?: { code?: number | string; message?: string };
}
interface ExportRequest {
  resourceSpans?: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: { scope?: { name?: string }; spans?: WireSpan[] }[];
  }[];
}

const SPAN_KINDS = ['UNSPECIFIED', 'INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'] as const;
const STATUS_CODES = ['UNSET', 'OK', 'ERROR'] as const;

function decodeExport(request: ExportRequest): ReceivedSpan[] {
  return (request.resourceSpans ?? []).flatMap((resourceSpans) => {
    const resource = decodeAttributes(resourceSpans.resource?.attributes);
    return (resourceSpans.scopeSpans ?? []).flatMap((scopeSpans) =>
      (scopeSpans.spans ?? []).map((span) => decodeSpan(span, resource, scopeSpans.scope?.name ?? '')),
    );
  });
}

function decodeSpan(span: WireSpan, resource: Record<string, unknown>, scope: string): ReceivedSpan {
  const status = span.status ?? {};
  return {
    traceId: span.traceId,
    spanId: span.spanId,
    parentSpanId: span.parentSpanId === undefined || span.parentSpanId === '' ? undefined : span.parentSpanId,
    name: span.name,
    kind: enumName(SPAN_KINDS, span.kind, 'SPAN_KIND_'),
    startTimeUnixNano: String(span.startTimeUnixNano),
    endTimeUnixNano: String(span.endTimeUnixNano),
    attributes: decodeAttributes(span.attributes),
    events: (span.events ?? []).map((event) => ({ name: event.name, attributes: decodeAttributes(event.attributes) })),
    links: (span.links ?? []).map((link) => ({
      traceId: link.traceId,
      spanId: link.spanId,
      attributes: decodeAttributes(link.attributes),
    })),
    status: {
      code: enumName(STATUS_CODES, status.code, 'STATUS_CODE_'),
      ...(status.message ? { message: status.message } : {}),
    },
    resource,
    scope,
  };
}

/** Proto3 JSON may write an enum as its number or its full name (`SPAN_KIND_CLIENT`). */
function enumName<T extends string>(names: readonly T[], value: number | string | undefined, prefix: string): T {
  if (typeof value === 'string') return (value.startsWith(prefix) ? value.slice(prefix.length) : value) as T;
  return names[value ?? 0] ?? names[0]!;
}

function decodeAttributes(attributes: KeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((attributes ?? []).map(({ key, value }) => [key, decodeValue(value)]));
}

function decodeValue(value: AnyValue | undefined): unknown {
  if (value === undefined) return undefined;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.bytesValue !== undefined) return value.bytesValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(decodeValue);
  if (value.kvlistValue !== undefined) return decodeAttributes(value.kvlistValue.values);
  return undefined;
}
