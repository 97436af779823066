import { randomUUID } from 'node:crypto';
import type { Bus, Job } from '../bus/bus.js';
import { EVENT_VERSION } from '../bus/events.js';
import { describeFailure } from '../claims/run-lease.js';

/**
 * Publishes the `failed` event of a job that will not run (refused, or given up after too many
 * deliveries), so whoever watches the generation hears of it. It belongs to the job's run when
 * one was claimed, else to a run named after the job. A job whose names cannot be published
 * (not subject tokens) is only dead-lettered.
 */
export async function announceJobFailure(
  bus: Bus,
  job: Job,
  error: Error,
  run: { run: string; epoch: number } = { run: `job-${job.id}`, epoch: 1 },
): Promise<void> {
  const suffix = run.epoch === 1 ? '' : `:e${run.epoch}`;
  await bus
    .publish({
      version: EVENT_VERSION,
      id: `${job.generation_id}:${run.run}:0${suffix}:failed:${randomUUID().slice(0, 8)}`,
      event: 'failed',
      agent: job.agent,
      action: job.action,
      generation_id: job.generation_id,
      run: run.run,
      index: 0,
      ...(run.epoch !== 1 && { epoch: run.epoch }),
      time: new Date().toISOString(),
      data: { error: describeFailure(error) },
    })
    .catch((publishError: unknown) => {
      if (!(publishError instanceof TypeError)) throw publishError;
    });
}
