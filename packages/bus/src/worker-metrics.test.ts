import { createRuntime, defineAgent, type ProviderAdapter } from '@interlude/core';
import type { JobOutcome } from '@interlude/core/internal';
import { createRefundScenario, type ScriptedResponder, scriptedProvider } from '@interlude/core/testing';
import { AggregationTemporality, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { describe, expect, it } from 'vitest';
import { memoryBus } from './memory-bus.js';
import { gate } from './test-support/gate.js';
import { eventually } from './testing/index.js';
import { createWorker } from './worker.js';
import { WORKER_METRICS } from './worker-metrics.js';

/** A reader the test collects from when it wants, as a periodic exporter would on its timer. */
class OnDemandReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

interface Point {
  attributes: Record<string, unknown>;
  value: unknown;
}

/** Every point of the metric `name` in one collection. */
async function collect(reader: MetricReader, name: string): Promise<Point[]> {
  const { resourceMetrics } = await reader.collect();
  return resourceMetrics.scopeMetrics
    .flatMap((scope) => scope.metrics)
    .filter((metric) => metric.descriptor.name === name)
    .flatMap((metric) => metric.dataPoints.map((point) => ({ attributes: point.attributes, value: point.value })));
}

/** The provider, with every call waiting on `before` first. */
function gated(provider: ProviderAdapter, before: () => Promise<void>): ProviderAdapter {
  return {
    ...provider,
    async call(request, callOptions) {
      await before();
      return provider.call(request, callOptions);
    },
  };
}

const total = (points: Point[]) => points.reduce((sum, point) => sum + (point.value as number), 0);
const histogramCount = (points: Point[], outcome: string) =>
  points
    .filter((point) => point.attributes['interlude.job.outcome'] === outcome)
    .reduce((sum, point) => sum + (point.value as { count: number }).count, 0);

function setUp(replies: ScriptedResponder[], beforeEachCall: () => Promise<void> = async () => undefined) {
  const reader = new OnDemandReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const runtime = createRuntime({ bus: memoryBus() });
  const scenario = createRefundScenario();
  const support = defineAgent({
    name: 'support',
    runtime,
    provider: gated(scriptedProvider(replies), beforeEachCall),
    actions: { handle: scenario.action },
  });
  const outcomes: JobOutcome[] = [];
  const worker = createWorker({
    runtime,
    agents: [support],
    queue: 'metered',
    meterProvider,
    onJob: (_job, outcome) => void outcomes.push(outcome),
  });
  return { reader, runtime, scenario, support, outcomes, worker };
}

describe('the worker metrics', () => {
  it('count running jobs, time each job by outcome, and count redeliveries', async () => {
    const { replies } = createRefundScenario();
    let failedOnce = false;
    const flaky: ScriptedResponder = () => {
      if (!failedOnce) {
        failedOnce = true;
        throw new Error('the model connection dropped');
      }
      return replies[0] as never;
    };
    const { reader, runtime, support, outcomes, worker } = setUp([
      replies[0] as never,
      flaky,
      flaky,
      replies[1] as never,
    ]);
    await worker.ready;

    const first = await support.handle({ ticketId: 1 }).generateLater({ queue: 'metered' });
    await eventually(() => outcomes.length === 1, 'the first pause');
    await support.handle({ ticketId: 2 }).generateLater({ queue: 'metered' });
    await eventually(() => outcomes.length === 2, 'the second pause, after one failed delivery');

    await runtime.answerLater(first.generationId, { call_refund: true }, { queue: 'metered' });
    await eventually(() => outcomes.length === 3, 'the resume');
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['awaiting_input', 'awaiting_input', 'completed']);

    expect(total(await collect(reader, WORKER_METRICS.activeJobs))).toBe(0);
    expect(await collect(reader, WORKER_METRICS.redeliveries)).toEqual([
      { attributes: { 'interlude.queue': 'metered' }, value: 1 },
    ]);
    const durations = await collect(reader, WORKER_METRICS.jobDuration);
    expect(histogramCount(durations, 'awaiting_input')).toBe(2);
    expect(histogramCount(durations, 'completed')).toBe(1);
    expect(histogramCount(durations, 'error')).toBe(1);
    expect(durations.find((point) => point.attributes['interlude.job.outcome'] === 'completed')?.attributes).toEqual({
      'interlude.queue': 'metered',
      'interlude.job.kind': 'resume',
      'gen_ai.agent.name': 'support',
      'interlude.job.outcome': 'completed',
    });
    await worker.stop();
  });

  it('show a job while it runs, and record a job for an agent it does not serve as unknown, not by its name', async () => {
    const { replies } = createRefundScenario();
    const held = gate();
    const { reader, runtime, support, outcomes, worker } = setUp([replies[0] as never], () => held.passed);
    await support.handle({ ticketId: 3 }).generateLater({ queue: 'metered' });
    await expect.poll(async () => total(await collect(reader, WORKER_METRICS.activeJobs))).toBe(1);
    held.open();
    await eventually(() => outcomes.length === 1, 'the pause');
    expect(outcomes[0]?.status).toBe('awaiting_input');
    expect(total(await collect(reader, WORKER_METRICS.activeJobs))).toBe(0);

    await runtime.bus.jobs.enqueue('metered', {
      version: 1,
      id: 'job-for-nobody',
      kind: 'generate',
      agent: 'agent-name-chosen-by-whoever-wrote-the-job',
      action: 'handle',
      params: {},
      generation_id: 'gen_nobody',
    });
    await eventually(() => outcomes.length === 2, 'the refusal');
    const refused = (await collect(reader, WORKER_METRICS.jobDuration)).filter(
      (point) => point.attributes['interlude.job.outcome'] === 'refused',
    );
    expect(refused.map((point) => point.attributes['gen_ai.agent.name'])).toEqual(['unknown']);
    await worker.stop();
  });
});
