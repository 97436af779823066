import type { Runtime } from '@interlude/core';
import {
  type AgentBase,
  expiryJobFor,
  type Job,
  type JobDelivery,
  type JobOutcome,
  type TimerVerdict,
} from '@interlude/core/internal';

/**
 * On a bus shared across processes, workers meet the deadlines of expiring questions of the agents
 * they serve (those defined when the worker starts): each due timer becomes the resume job its
 * deadline makes, run here as a queued job runs (claimed by its id, which is fixed per pause, so a
 * timer met twice runs once, and a worker that dies meeting it is taken over). Nothing is queued:
 * the timer is the job's delivery, and is answered as a job is: settled once its run stopped (or
 * the log shows the pause no longer waiting), handed back when the run failed, left alone when a
 * later delivery took the run over. (On a bus that never leaves the process the runtime meets them.)
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
      async (timer): Promise<TimerVerdict> => {
        const job = await expiryJobFor(runtime, timer, agents);
        // The pause no longer waits, and no run of its deadline holds it: the log settled it.
        if (job === undefined) return { verdict: 'done' };
        const outcome = await handle(job, { attempt: 1, headers: {}, maxAttempts: 1 });
        // Failed in a way another try may mend (the claim was given back): the timer comes again.
        if (outcome.status === 'failed') throw outcome.error;
        // Taken over by a later delivery of the timer (this worker stalled past the ack wait): that
        // delivery holds it. An ack here would settle it under that run (JetStream acknowledges the
        // message whichever delivery's ack it hears), and if that run then died nothing would meet
        // the deadline again; a nak would have the run taken over once more.
        if (outcome.status === 'fenced') return { verdict: 'abandon' };
        return { verdict: 'done' };
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
