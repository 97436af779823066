import type { Bus, JobConsumer, JobHandler } from '@interlude/core';

/** A running worker. */
export interface Worker {
  /** Resolves once the worker consumes its queue; rejects if it could not start. */
  readonly ready: Promise<void>;
  /** Stops taking jobs and waits for the running ones to finish (and be acknowledged). */
  stop(): Promise<void>;
}

/**
 * Consumes one queue of a bus with `handle`, at most `concurrency` jobs at a time. Returns at
 * once, so a worker can be started in a module's top level; `stop()` is safe before `ready`.
 */
export function startJobWorker(options: { bus: Bus; queue: string; concurrency: number; handle: JobHandler }): Worker {
  let stopping = false;
  const consumer: Promise<JobConsumer> = options.bus.jobs.consume(options.queue, options.handle, {
    concurrency: options.concurrency,
  });
  const ready = consumer.then(async (started) => {
    if (stopping) await started.stop();
  });
  // Reported through `ready` to whoever awaits it, not as an unhandled rejection.
  ready.catch(() => undefined);
  return {
    ready,
    async stop() {
      stopping = true;
      const started = await consumer.catch(() => undefined);
      await started?.stop();
    },
  };
}
