import { type Runtime, TrustError } from '@interlude/core';
import {
  type AgentBase,
  DEFAULT_QUEUE,
  type Job,
  type JobDelivery,
  type JobOutcome,
  jobVerdict,
  runJob,
} from '@interlude/core/internal';
import { type MeterProvider, metrics } from '@opentelemetry/api';
import { startJobWorker, type Worker } from './job-worker.js';
import { assertSubjectToken } from './subjects.js';
import { meetDeadlines } from './worker-deadlines.js';
import { createWorkerMetrics } from './worker-metrics.js';

export type { Worker, WorkerStopOptions } from './job-worker.js';

export interface WorkerOptions {
  /** Its bus supplies the jobs; its telemetry and checkpoint key apply to every generation. */
  runtime: Runtime;
  /** The agents this worker serves; the runtime's own agents are used for names not listed. */
  agents?: readonly AgentBase[];
  /** Default `agents`, the queue `generateLater()` / `resumeLater()` use by default. */
  queue?: string;
  /** Jobs run at once by this worker. Default 1. */
  concurrency?: number;
  /**
   * Called after each job, e.g. to log a refused resume (those are dead-lettered, not retried).
   * Default: a job refused because it is unsigned or forged (`TrustError`) is reported on stderr,
   * since someone without the key is writing to the queue.
   */
  onJob?: (job: Job, outcome: JobOutcome) => void;
  /**
   * Where the worker's metrics go (jobs running, job durations, redeliveries: see
   * `WORKER_METRICS`). Default: the global meter provider, which records nothing
   * until an OpenTelemetry SDK is registered (the `interlude-worker` bin registers one when
   * `OTEL_EXPORTER_OTLP_ENDPOINT` is set).
   */
  meterProvider?: MeterProvider;
}

/**
 * Runs `generateLater()` / `resumeLater()` jobs from the runtime's bus, each through core's
 * `runJob`: the generation runs (or resumes), its run claimed in the claim log as the job, and
 * the job is acknowledged only once that has resolved, which means its events are stored. A job
 * whose worker dies or stalls past the ack wait is delivered again, to this worker or another,
 * which takes the run over (the stalled worker is fenced out at its next step): tool calls its
 * event log shows completed do not run again, and a call that started without a result runs
 * again only if its tool is idempotent, otherwise it becomes a question to a person. A refused
 * job goes to the queue's dead letters. `stop()` drains: no new jobs, running ones finish, or are
 * handed back to the queue past `timeoutMs`. The worker records OpenTelemetry metrics
 * (`meterProvider`).
 *
 * @example
 * const worker = createWorker({ runtime, agents: [support], queue: 'agents', concurrency: 4 });
 * process.once('SIGTERM', async () => {
 *   await worker.stop({ timeoutMs: 20_000 }); // no new jobs; running ones finish or are handed back
 *   await runtime.close(); // the connection: nothing of Interlude's keeps the process alive now
 *   process.exit(0); // a job handed back may still be running in this process: end it
 * });
 */
export function createWorker(options: WorkerOptions): Worker {
  const queue = assertSubjectToken('queue', options.queue ?? DEFAULT_QUEUE);
  const { runtime, agents } = options;
  const onJob = options.onJob ?? reportForgedJob;
  const servedAgents = () => new Set([...(agents ?? []).map((agent) => agent.name), ...runtime.agents.keys()]);
  const measured = createWorkerMetrics({
    meterProvider: options.meterProvider ?? metrics.getMeterProvider(),
    queue,
    serves: (name) => servedAgents().has(name),
  });
  const handle = async (job: Job, delivery: JobDelivery) => {
    const run = () => runJob({ runtime, ...(agents !== undefined && { agents }), job, delivery });
    const outcome = await measured.measure(job, delivery, run);
    onJob(job, outcome);
    return outcome;
  };
  const worker = startJobWorker({
    bus: runtime.bus,
    queue,
    concurrency: options.concurrency ?? 1,
    handle: async (job, delivery) => jobVerdict(await handle(job, delivery)),
  });
  const deadlines = meetDeadlines(runtime, agents, [...servedAgents()], handle);
  return {
    ready: Promise.all([worker.ready, deadlines.ready]).then(() => undefined),
    isConsuming: () => worker.isConsuming(),
    async stop(stopOptions) {
      await deadlines.stop();
      await worker.stop(stopOptions);
    },
  };
}

/** The default `onJob`: says on stderr which job was refused as unsigned or forged, and why. */
function reportForgedJob(job: Job, outcome: JobOutcome): void {
  if (outcome.status !== 'refused' || !('error' in outcome) || !TrustError.isInstance(outcome.error)) return;
  // Quoted: whoever forged the job chose its id, control characters included.
  const id = JSON.stringify(typeof job.id === 'string' ? job.id.slice(0, 64) : null);
  console.error(`[interlude/worker] refused job ${id} (${outcome.error.code}): ${outcome.error.message}`);
}
