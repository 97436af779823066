import { createRuntime, defineAgent } from '@interlude/core';
import { createRefundScenario, scriptedProvider } from '@interlude/core/testing';
import { observeQuestionsWaiting, openTelemetry, semconv } from '@interlude/telemetry';
import { createInMemoryTracing } from '@interlude/telemetry/testing';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_TOKEN_TYPE,
  METRIC_GEN_AI_CLIENT_OPERATION_DURATION,
  METRIC_GEN_AI_CLIENT_TOKEN_USAGE,
} from '@opentelemetry/semantic-conventions/incubating';
import { expect, it } from 'vitest';

/** A runtime given a meter: two processes' worth of telemetry on one meter provider, read on demand. */
function meteredRuntime() {
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  const runtime = createRuntime({
    telemetry: openTelemetry({ tracerProvider: createInMemoryTracing().tracerProvider, meterProvider }),
  });
  const points = async () => {
    await reader.forceFlush();
    const metrics =
      exporter
        .getMetrics()
        .at(-1)
        ?.scopeMetrics.flatMap((scope) => scope.metrics) ?? [];
    return (name: string) => metrics.find((metric) => metric.descriptor.name === name)?.dataPoints ?? [];
  };
  return { runtime, meterProvider, points, close: () => meterProvider.shutdown() };
}

it('records each model call’s duration and tokens as the GenAI client metrics', async () => {
  const { runtime, points, close } = meteredRuntime();
  const scenario = createRefundScenario();
  const support = defineAgent({
    name: 'support',
    runtime,
    provider: scriptedProvider(scenario.replies),
    actions: { handle: scenario.action },
  });
  const paused = await support.handle({ ticketId: 42 }).generateNow();
  await support.handle({ ticketId: 42 }).resumeNow({ checkpoint: paused.checkpoint, answers: { call_refund: true } });
  const after = await points();

  const call = {
    [ATTR_GEN_AI_OPERATION_NAME]: 'chat',
    [ATTR_GEN_AI_PROVIDER_NAME]: 'scripted',
    [ATTR_GEN_AI_REQUEST_MODEL]: 'scripted-1',
  };
  const durations = after(METRIC_GEN_AI_CLIENT_OPERATION_DURATION);
  expect(durations).toHaveLength(1);
  expect(durations[0]).toMatchObject({ attributes: call, value: { count: 2 } });
  const tokens = after(METRIC_GEN_AI_CLIENT_TOKEN_USAGE);
  // The scripted model reports 10 in and 5 out per call: two calls, each counted once.
  expect(
    tokens.map((point) => [point.attributes[ATTR_GEN_AI_TOKEN_TYPE], (point.value as { sum: number }).sum]).sort(),
  ).toEqual([
    ['input', 20],
    ['output', 10],
  ]);
  await close();
});

it('reports the questions waiting as a gauge read from the pending view: the pause’s, until it is answered', async () => {
  const { runtime, meterProvider, points, close } = meteredRuntime();
  const waiting = observeQuestionsWaiting(runtime, { meterProvider });
  const scenario = createRefundScenario();
  const support = defineAgent({
    name: 'support',
    runtime,
    provider: scriptedProvider([scenario.replies[0]!, ...scenario.replies]),
    actions: { handle: scenario.action },
  });
  const gauge = async () => (await points())(semconv.METRIC_INTERLUDE_INPUT_REQUESTS_WAITING);
  const support0 = [{ attributes: { [ATTR_GEN_AI_AGENT_NAME]: 'support' }, value: 0 }];
  expect(await gauge()).toMatchObject(support0);
  const first = await support.handle({ ticketId: 42 }).generateNow();
  const second = await support.handle({ ticketId: 43 }).generateNow();
  expect(await gauge()).toMatchObject([{ attributes: { [ATTR_GEN_AI_AGENT_NAME]: 'support' }, value: 2 }]);
  await runtime.answer(first.generationId, { call_refund: true });
  expect(await gauge()).toMatchObject([{ value: 1 }]);
  await runtime.cancel(second.generationId, 'customer withdrew');
  expect(await gauge()).toMatchObject(support0);
  waiting.stop();
  await close();
});

it('records a failed model call’s duration with its error.type, and no tokens', async () => {
  const { runtime, points, close } = meteredRuntime();
  const failing = defineAgent({
    name: 'support',
    runtime,
    provider: scriptedProvider([
      () => {
        throw new TypeError('the model is down');
      },
    ]),
    actions: { handle: () => ({ message: 'Hello', tools: [] }) },
  });
  await expect(failing.handle({}).generateNow()).rejects.toThrow('the model is down');
  const after = await points();
  expect(after(METRIC_GEN_AI_CLIENT_OPERATION_DURATION)).toMatchObject([
    { attributes: { 'error.type': 'TypeError' }, value: { count: 1 } },
  ]);
  expect(after(METRIC_GEN_AI_CLIENT_TOKEN_USAGE)).toEqual([]);
  await close();
});
