import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type OtlpReceiver, startOtlpReceiver } from '../support/otlp-receiver.js';

let receiver: OtlpReceiver;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
});
afterAll(() => receiver.close());

/** An export as another SDK may write it: gzip, enums by name, every attribute value type. */
const exportRequest = {
  resourceSpans: [
    {
      resource: { attributes: [{ key: 'service.name', value: { stringValue: 'billing' } }] },
      scopeSpans: [
        {
          scope: { name: 'other-sdk' },
          spans: [
            {
              traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
              spanId: '00f067aa0ba902b7',
              parentSpanId: '',
              name: 'charge',
              kind: 'SPAN_KIND_CLIENT',
              startTimeUnixNano: 1,
              endTimeUnixNano: '2',
              attributes: [
                { key: 'text', value: { stringValue: 'a' } },
                { key: 'flag', value: { boolValue: false } },
                { key: 'count', value: { intValue: '42' } },
                { key: 'ratio', value: { doubleValue: 0.5 } },
                { key: 'list', value: { arrayValue: { values: [{ stringValue: 'x' }, { intValue: 1 }] } } },
                { key: 'map', value: { kvlistValue: { values: [{ key: 'k', value: { stringValue: 'v' } }] } } },
              ],
              status: { code: 'STATUS_CODE_ERROR', message: 'declined' },
            },
          ],
        },
      ],
    },
  ],
};

it('decodes a gzipped JSON export into plain spans', async () => {
  const response = await fetch(receiver.tracesUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    body: gzipSync(JSON.stringify(exportRequest)),
  });
  expect(response.status).toBe(200);
  expect(await receiver.waitForSpans(1)).toEqual([
    {
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      spanId: '00f067aa0ba902b7',
      parentSpanId: undefined,
      name: 'charge',
      kind: 'CLIENT',
      startTimeUnixNano: '1',
      endTimeUnixNano: '2',
      attributes: { text: 'a', flag: false, count: 42, ratio: 0.5, list: ['x', 1], map: { k: 'v' } },
      events: [],
      links: [],
      status: { code: 'ERROR', message: 'declined' },
      resource: { 'service.name': 'billing' },
      scope: 'other-sdk',
    },
  ]);
});

it('answers 404 off /v1/traces and /v1/metrics and gives up waiting with the count it got', async () => {
  expect((await fetch(`${receiver.url}/v1/logs`, { method: 'POST', body: '{}' })).status).toBe(404);
  receiver.clear();
  await expect(receiver.waitForSpans(1, 100)).rejects.toThrow('got 0 spans, expected 1');
});

it('decodes a metrics export into one record per data point: sums, gauges and histograms', async () => {
  receiver.clear();
  const point = (attributes: object) => ({
    timeUnixNano: '5',
    attributes: Object.entries(attributes).map(([key, value]) => ({ key, value })),
  });
  const response = await fetch(`${receiver.url}/v1/metrics`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      resourceMetrics: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'interlude-worker' } }] },
          scopeMetrics: [
            {
              scope: { name: '@interlude/bus' },
              metrics: [
                {
                  name: 'jobs',
                  unit: '{job}',
                  sum: { dataPoints: [{ ...point({ queue: { stringValue: 'a' } }), asInt: '3' }] },
                },
                { name: 'open', gauge: { dataPoints: [{ ...point({}), asDouble: 1.5 }] } },
                {
                  name: 'took',
                  unit: 's',
                  histogram: { dataPoints: [{ ...point({ ok: { boolValue: true } }), count: '2', sum: 0.75 }] },
                },
              ],
            },
          ],
        },
      ],
    }),
  });
  expect(response.status).toBe(200);
  await receiver.waitForMetric((received) => received.name === 'took');
  const shared = { timeUnixNano: '5', resource: { 'service.name': 'interlude-worker' }, scope: '@interlude/bus' };
  expect(receiver.metricPoints()).toEqual([
    { ...shared, name: 'jobs', unit: '{job}', kind: 'sum', attributes: { queue: 'a' }, value: 3 },
    { ...shared, name: 'open', unit: '', kind: 'gauge', attributes: {}, value: 1.5 },
    { ...shared, name: 'took', unit: 's', kind: 'histogram', attributes: { ok: true }, count: 2, sum: 0.75 },
  ]);
  await expect(receiver.waitForMetric((received) => received.name === 'absent', 100)).rejects.toThrow(
    'got: jobs, open, took',
  );
});
