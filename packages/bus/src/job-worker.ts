import type { Bus } from '@interlude/core';
import type { JobConsumer, JobConsumerStopOptions, JobHandler } from '@interlude/core/internal';

/** A running worker. */
export interface Worker {
  /** Resolves once the worker consumes its queue; rejects if it could not start. */
  readonly ready: Promise<void>;
  /**
   * Stops taking jobs and waits for the running ones to finish (and be acknowledged), for ever or
   * for `timeoutMs`: past it the jobs still running are handed back to the queue, where another
   * worker takes them at once, and `stop()` resolves. It leaves no timer or connection of its own
   * behind; the bus is the runtime's, so close that too (`runtime.close()`) before the process
   * may exit. A second call may shorten the bound (`{ timeoutMs: 0 }`: hand them back now).
   */
  stop(options?: WorkerStopOptions): Promise<void>;
  /**
   * Whether the worker is taking jobs right now: started, not stopping, and its bus connected
   * (as far as the bus can tell). What a readiness probe asks.
   */
  isConsuming(): boolean;
}

/** How long `worker.stop()` waits for running jobs before handing them back. */
export type WorkerStopOptions = JobConsumerStopOptions;

/**
 * Consumes one queue of a bus with `handle`, at most `concurrency` jobs at a time. Returns at
 * once, so a worker can be started in a module's top level; `stop()` is safe before `ready`.
 */
export function startJobWorker(options: { bus: Bus; queue: string; concurrency: number; handle: JobHandler }): Worker {
  let stopping = false;
  let started: JobConsumer | undefined;
  const consumer: Promise<JobConsumer> = options.bus.jobs.consume(options.queue, options.handle, {
    concurrency: options.concurrency,
  });
  const ready = consumer.then(async (consuming) => {
    started = consuming;
    if (stopping) await consuming.stop();
  });
  // Reported through `ready` to whoever awaits it, not as an unhandled rejection.
  ready.catch(() => undefined);
  return {
    ready,
    async stop(stopOptions) {
      stopping = true;
      // Not started yet (its bus may still be connecting, for as long as the server is away):
      // nothing runs, so there is nothing to wait for; `ready` stops it should it start after all.
      if (started === undefined) return;
      await started.stop(stopOptions);
    },
    isConsuming: () => !stopping && started !== undefined && (started.isConsuming?.() ?? true),
  };
}
