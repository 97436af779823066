import type { GenerationEvent, InputRequestJSON, Runtime, Subscription } from '@interlude/core';
import type { Ledger } from './reliability-ledger.js';

/** What the operator did, for a test's assertions and figures. */
export interface OperatorLog {
  /** Generations that paused at least once, and that completed. */
  paused: Set<string>;
  completed: Set<string>;
  /** Outcome-unknown questions answered: run again (nothing in the ledger) or declined (it is there). */
  reruns: string[];
  declines: string[];
  /** Answers that could not be queued (with why), which a test expects to stay empty. */
  failures: string[];
}

/**
 * The person in the loop of the reliability tests: answers every question of the generations in
 * `ours` through the queue. A confirm gets `true`; a question about an unknown outcome ("…stopped
 * mid-call…; run it again?") is answered the way an operator would, by looking downstream: if the
 * call's side effect is in the ledger it happened, so no; if not, yes. It decides only once
 * `mayDecide(generationId)` says the run that stopped mid-call can no longer finish it (its
 * worker was killed, or fenced out after it woke), so the look downstream is final.
 */
export async function startOperator(options: {
  runtime: Runtime;
  ledger: Ledger;
  queue: string;
  ours: ReadonlySet<string>;
  mayDecide?: (generationId: string) => boolean;
  /** Awaited before a generation's first question is answered: lets a test start resumes in batches. */
  holdFirstAnswer?: (generationId: string) => Promise<void>;
}): Promise<OperatorLog & { stop(): Promise<void> }> {
  const log: OperatorLog = { paused: new Set(), completed: new Set(), reruns: [], declines: [], failures: [] };
  const answered = new Set<string>();
  const pending = new Set<Promise<void>>();
  const answer = async (generationId: string, requests: InputRequestJSON[]) => {
    if (!log.paused.has(generationId)) {
      log.paused.add(generationId);
      await options.holdFirstAnswer?.(generationId);
    }
    const answers: Record<string, unknown> = {};
    for (const request of requests) {
      const callId = request.tool_call_id ?? '';
      if (request.metadata?.['outcome_unknown'] !== true) {
        answers[callId] = true;
        continue;
      }
      while (options.mayDecide !== undefined && !options.mayDecide(generationId)) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const done = (await options.ledger.rows()).some(
        (row) => row.generation_id === generationId && row.tool_call_id === callId,
      );
      answers[callId] = !done;
      (done ? log.declines : log.reruns).push(`${generationId}/${callId}`);
    }
    await options.runtime.answerLater(generationId, answers, { queue: options.queue });
  };
  const heard = (event: GenerationEvent) => {
    if (!options.ours.has(event.generation_id)) return;
    if (event.event === 'completed') {
      log.completed.add(event.generation_id);
      return;
    }
    if (event.event !== 'input_requested' || answered.has(event.id)) return;
    answered.add(event.id);
    const task = answer(event.generation_id, event.data.input_requests)
      .catch((error: unknown) => void log.failures.push(`${event.generation_id}: ${String(error)}`))
      .finally(() => pending.delete(task));
    pending.add(task);
  };
  const subscription: Subscription = await options.runtime.bus.subscribe(
    { event: ['input_requested', 'completed'] },
    heard,
  );
  // A live subscriber misses what is published while its own connection is down (a server
  // restart): the event log has it, so the operator reads the logs of what it is waiting on too.
  let sweeping = false;
  const sweep = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    void (async () => {
      for (const generationId of options.ours) {
        if (log.completed.has(generationId)) continue;
        const events = await options.runtime.bus.events(generationId);
        const last = events.findLast((event) => event.event === 'input_requested' || event.event === 'completed');
        if (last !== undefined) heard(last);
      }
    })()
      .catch(() => undefined)
      .finally(() => {
        sweeping = false;
      });
  }, 2_000);
  return Object.assign(log, {
    async stop() {
      clearInterval(sweep);
      await subscription.unsubscribe();
      await Promise.all([...pending]);
    },
  });
}
