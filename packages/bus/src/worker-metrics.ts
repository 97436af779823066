import type { Job, JobDelivery, JobOutcome } from '@interlude/core/internal';
import { type Attributes, type MeterProvider, ValueType } from '@opentelemetry/api';

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
} as const;

/** Upper bounds of the duration buckets: a job is a generation, seconds to minutes long. */
const DURATION_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];

/** What the worker records for each job. */
export interface WorkerMetrics {
  measure(job: Job, delivery: JobDelivery, run: () => Promise<JobOutcome>): Promise<JobOutcome>;
}

/**
 * The worker's metrics, through the OpenTelemetry metrics API: with no SDK registered they cost
 * next to nothing (the API's meters do nothing). A job's agent is recorded only when the worker
 * serves it: a job names its agent itself, and a forged one could otherwise make a new time
 * series per job.
 */
export function createWorkerMetrics(options: {
  meterProvider: MeterProvider;
  queue: string;
  serves: (agent: string) => boolean;
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
  };
}
