import type { Bus } from '@interlude/core';
import type { Job, JobDelivery, JobOutcome } from '@interlude/core/internal';
import { type Attributes, type MeterProvider, ValueType } from '@opentelemetry/api';
import { trackOpenInputRequests } from './open-input-requests.js';

/** The instrumentation scope of the worker's metrics. */
export const WORKER_METER_NAME = '@interlude/bus';

/** The worker's instruments, by name; their attributes are described on each. */
export const WORKER_METRICS = {
  /** Up-down counter: jobs this worker is running now. Attribute `interlude.queue`. */
  activeJobs: 'interlude.worker.active_jobs',
  /**
   * Histogram (seconds): how long a job took, from delivery to its outcome. Attributes
   * `interlude.queue`, `interlude.job.kind` (`generate`, `resume`), `gen_ai.agent.name`, and
   * `interlude.job.outcome`: the generation's status (`completed`, `awaiting_input`,
   * `tool_turns_exceeded`), `failed`, `refused`, `duplicate` (its run had stopped already),
   * `fenced` (another delivery took its run over), or `error` (handed back for another delivery).
   */
  jobDuration: 'interlude.worker.job.duration',
  /** Counter: deliveries that were not a job's first (a worker died, stalled or failed). Attribute `interlude.queue`. */
  redeliveries: 'interlude.worker.job.redeliveries',
  /**
   * Observable gauge: input requests waiting on a person, for the agents this worker serves,
   * counted from the bus's live events since the worker started (an approximation; every worker
   * reports the same deployment-wide number). Attributes `interlude.queue`, `gen_ai.agent.name`.
   */
  openInputRequests: 'interlude.worker.input_requests.open',
} as const;

/** Upper bounds of the duration buckets: a job is a generation, seconds to minutes long. */
const DURATION_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];

/** What the worker records for each job; `stop()` ends the event subscription the gauge uses. */
export interface WorkerMetrics {
  measure(job: Job, delivery: JobDelivery, run: () => Promise<JobOutcome>): Promise<JobOutcome>;
  stop(): Promise<void>;
}

/**
 * The worker's metrics, through the OpenTelemetry metrics API: with no SDK registered they cost
 * next to nothing (the API's meters do nothing), and the event subscription behind the open input
 * requests gauge is made only once something reads the gauge. A job's agent is recorded only
 * when the worker serves it: a job names its agent itself, and a forged one could otherwise make
 * a new time series per job.
 */
export function createWorkerMetrics(options: {
  meterProvider: MeterProvider;
  queue: string;
  bus: Bus;
  serves: (agent: string) => boolean;
  servedAgents: () => Iterable<string>;
  onError: (error: unknown) => void;
}): WorkerMetrics {
  const { queue, serves } = options;
  const meter = options.meterProvider.getMeter(WORKER_METER_NAME);
  const queueOnly: Attributes = { 'interlude.queue': queue };
  const active = meter.createUpDownCounter(WORKER_METRICS.activeJobs, {
    description: 'Jobs this worker is running now',
    unit: '{job}',
    valueType: ValueType.INT,
  });
  const duration = meter.createHistogram(WORKER_METRICS.jobDuration, {
    description: 'How long a job took, from its delivery to its outcome',
    unit: 's',
    advice: { explicitBucketBoundaries: DURATION_BUCKETS },
  });
  const redeliveries = meter.createCounter(WORKER_METRICS.redeliveries, {
    description: 'Deliveries of a job that were not its first',
    unit: '{delivery}',
    valueType: ValueType.INT,
  });
  const openRequests = trackOpenInputRequests(options.bus, serves);
  const gauge = meter.createObservableGauge(WORKER_METRICS.openInputRequests, {
    description: 'Input requests waiting on a person, from the live events since this worker started',
    unit: '{request}',
    valueType: ValueType.INT,
  });
  const observe = (result: { observe(value: number, attributes: Attributes): void }) => {
    openRequests.start(options.onError);
    const counts = openRequests.byAgent();
    for (const agent of options.servedAgents()) {
      result.observe(counts.get(agent) ?? 0, { ...queueOnly, 'gen_ai.agent.name': agent });
    }
  };
  gauge.addCallback(observe);

  return {
    async measure(job, delivery, run) {
      const started = performance.now();
      active.add(1, queueOnly);
      if (delivery.attempt > 1) redeliveries.add(1, queueOnly);
      const attributes: Attributes = {
        ...queueOnly,
        'interlude.job.kind': job.kind === 'resume' ? 'resume' : 'generate',
        'gen_ai.agent.name': typeof job.agent === 'string' && serves(job.agent) ? job.agent : 'unknown',
      };
      let outcome = 'error';
      try {
        const result = await run();
        outcome = result.status;
        return result;
      } finally {
        active.add(-1, queueOnly);
        duration.record((performance.now() - started) / 1_000, { ...attributes, 'interlude.job.outcome': outcome });
      }
    },
    async stop() {
      gauge.removeCallback(observe);
      await openRequests.stop();
    },
  };
}
