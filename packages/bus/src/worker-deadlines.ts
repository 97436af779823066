import type { Runtime } from '@interlude/core';
import { type AgentBase, expiryJobFor, type Job, type JobDelivery, type JobOutcome } from '@interlude/core/internal';

/**
 * On a bus shared across processes, workers meet the deadlines of expiring questions of the agents
 * they serve (those defined when the worker starts): each due timer becomes the resume job its
 * deadline makes, run here as a queued job runs (claimed by its id, which is fixed per pause, so a
 * timer met twice runs once, and a worker that dies meeting it is taken over). Nothing is queued:
 * the timer is the job's delivery. (On a bus that never leaves the process the runtime meets them.)
 */
export function meetDeadlines(
  runtime: Runtime,
  agents: readonly AgentBase[] | undefined,
  served: readonly string[],
  handle: (job: Job, delivery: JobDelivery) => Promise<JobOutcome>,
) {
  const timers = runtime.bus.shared ? runtime.bus.timers : undefined;
  if (timers === undefined) return { ready: Promise.resolve(), stop: async () => undefined };
  let stopped = false;
  let started: { stop(): Promise<void> } | undefined;
  const ready = timers
    .consume(
      async (timer) => {
        const job = await expiryJobFor(runtime, timer, agents);
        if (job === undefined) return;
        const outcome = await handle(job, { attempt: 1, headers: {}, maxAttempts: 1 });
        // Failed in a way another try may mend (the claim was given back): the timer comes again.
        if (outcome.status === 'failed') throw outcome.error;
      },
      { agents: served },
    )
    .then(async (consumer) => {
      started = consumer;
      // Stopped while its bus was still connecting: it stops as soon as it starts.
      if (stopped) await consumer.stop();
    });
  ready.catch(() => undefined);
  return {
    ready,
    async stop() {
      stopped = true;
      await started?.stop();
    },
  };
}
