import {
  type AgentBase,
  DEFAULT_QUEUE,
  type Job,
  type JobOutcome,
  jobVerdict,
  type Runtime,
  runJob,
  TrustError,
} from '@interlude/core';
import { startJobWorker, type Worker } from './job-worker.js';
import { assertSubjectToken } from './subjects.js';

export type { Worker } from './job-worker.js';

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
}

/**
 * Runs `generateLater()` / `resumeLater()` jobs from the runtime's bus, each through core's
 * `runJob`: the generation runs (or resumes), its run claimed in the claim log as the job, and
 * the job is acknowledged only once that has resolved, which means its events are stored. A job
 * whose worker dies or stalls past the ack wait is delivered again, to this worker or another,
 * which takes the run over (the stalled worker is fenced out at its next step): tool calls its
 * event log shows completed do not run again, and a call that started without a result runs
 * again only if its tool is idempotent, otherwise it becomes a question to a person. A refused
 * job goes to the queue's dead letters. `stop()` drains: no new jobs, running ones finish.
 *
 * @example
 * const worker = createWorker({ runtime, agents: [support], queue: 'agents', concurrency: 4 });
 * process.on('SIGTERM', () => worker.stop());
 */
export function createWorker(options: WorkerOptions): Worker {
  const queue = assertSubjectToken('queue', options.queue ?? DEFAULT_QUEUE);
  const { runtime, agents } = options;
  const onJob = options.onJob ?? reportForgedJob;
  return startJobWorker({
    bus: runtime.bus,
    queue,
    concurrency: options.concurrency ?? 1,
    handle: async (job, delivery) => {
      const outcome = await runJob({ runtime, ...(agents !== undefined && { agents }), job, delivery });
      onJob(job, outcome);
      return jobVerdict(outcome);
    },
  });
}

/** The default `onJob`: says on stderr which job was refused as unsigned or forged, and why. */
function reportForgedJob(job: Job, outcome: JobOutcome): void {
  if (outcome.status !== 'refused' || !('error' in outcome) || !TrustError.isInstance(outcome.error)) return;
  // Quoted: whoever forged the job chose its id, control characters included.
  const id = JSON.stringify(typeof job.id === 'string' ? job.id.slice(0, 64) : null);
  console.error(`[interlude/worker] refused job ${id} (${outcome.error.code}): ${outcome.error.message}`);
}
