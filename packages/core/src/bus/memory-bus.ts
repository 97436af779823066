import { nestsDeeperThan } from '../json/nesting-depth.js';
import type { CheckpointKeys } from '../trust/checkpoint-keys.js';
import type {
  Bus,
  CheckpointStore,
  DeadLetter,
  EventFilter,
  EventHandler,
  Job,
  JobConsumer,
  JobHandler,
  JobQueue,
  StoredCheckpoint,
} from './bus.js';
import { matchesFilter, toEventFilter } from './event-filter.js';
import type { GenerationEvent } from './events.js';
import { latestEpochs } from './latest-epochs.js';
import { createMemoryEventStream } from './memory-event-stream.js';
import { createMemoryPendingIndex } from './memory-pending-index.js';
import { createMemoryTimerQueue } from './memory-timers.js';
import { createBindableClaimLog } from './process-claim-logs.js';
import { createStopBound } from './stop-bound.js';

export interface MemoryBusOptions {
  /** Deliveries of one job before it is refused (dead-lettered). Default 5. */
  maxDeliveries?: number;
  /**
   * Completed generations whose log and checkpoint are kept; older ones are forgotten, so a
   * long-running process on the default bus does not grow without bound. Default 1,000. Their
   * claims are kept (compacted) for as long as the bus lives: a checkpoint resumed once is
   * refused for good, however many generations complete after it.
   */
  retainCompleted?: number;
  /** Events kept in publish order for `bus.follow()` to resume from. Default 10,000. */
  followableEvents?: number;
}

/**
 * The embedded bus: one process, no server. Events, checkpoints, claims and jobs live in memory,
 * with the same semantics as the NATS bus (dedupe by event id, write-once claim slots, redelivery
 * of a job whose handler failed, dead letters). Readers get copies, as they would off a wire.
 */
export function createMemoryBus(options: MemoryBusOptions = {}): Bus {
  const logs = new Map<string, GenerationEvent[]>();
  const seen = new Set<string>();
  const subscribers = new Set<{ filter: EventFilter; handler: EventHandler }>();
  const stream = createMemoryEventStream(options.followableEvents ?? 10_000);
  const checkpoints = createMemoryCheckpointStore();
  const claims = createBindableClaimLog();
  const pending = createMemoryPendingIndex();
  let timerKeys: CheckpointKeys | undefined;
  let keysBound = false;
  const completed = new Set<string>();
  // Completion order as a queue with a moving head: taking the oldest off a Set with
  // `values().next()` walks past every entry deleted before it, which grows with every completion.
  const completionOrder: string[] = [];
  let oldestIndex = 0;
  const retainCompleted = options.retainCompleted ?? 1_000;

  const forgetOldest = () => {
    while (completed.size > retainCompleted) {
      const oldest = completionOrder[oldestIndex] as string;
      oldestIndex += 1;
      completed.delete(oldest);
      for (const event of logs.get(oldest) ?? []) seen.delete(event.id);
      logs.delete(oldest);
      checkpoints.forget(oldest);
      void pending.remove(oldest);
    }
    if (oldestIndex > 1_024 && oldestIndex * 2 > completionOrder.length) {
      completionOrder.splice(0, oldestIndex);
      oldestIndex = 0;
    }
  };

  return {
    shared: false,
    // A runtime binding its keys moves the bus to the process's one claim log (`process-claim-logs.ts`).
    useKeys(keys) {
      claims.useKeys(keys);
      // The first runtime's keys sign and check the timers, as they choose the claim log.
      if (!keysBound) timerKeys = keys;
      keysBound = true;
    },
    async publish(event) {
      if (seen.has(event.id)) return;
      seen.add(event.id);
      // Kept as published: core never mutates an event or the context arrays it points into, and
      // every reader (events(), subscribers) gets its own copy.
      const copy = event;
      const log = logs.get(event.generation_id) ?? [];
      log.push(copy);
      logs.set(event.generation_id, log);
      if (event.event === 'completed' && !completed.has(event.generation_id)) {
        claims.compact(event.generation_id);
        completed.add(event.generation_id);
        completionOrder.push(event.generation_id);
        forgetOldest();
      }
      stream.append(copy);
      for (const subscriber of subscribers) {
        if (!matchesFilter(subscriber.filter, copy)) continue;
        // A subscriber's failure is its own: it must not fail the generation that published.
        void Promise.resolve()
          .then(() => subscriber.handler(structuredClone(copy)))
          .catch(() => {});
      }
    },
    async events(generationId, options) {
      const log = logs.get(generationId) ?? [];
      return structuredClone(options?.everyEpoch === true ? log : latestEpochs(log));
    },
    async pausedGenerations() {
      return [...logs].filter(([, log]) => log.some((event) => event.event === 'input_requested')).map(([id]) => id);
    },
    async subscribe(selector, handler) {
      // The filter lets through only the events the selector names, the ones the handler is typed for.
      const subscriber = { filter: toEventFilter(selector), handler: handler as EventHandler };
      subscribers.add(subscriber);
      return {
        async unsubscribe() {
          subscribers.delete(subscriber);
        },
      };
    },
    async follow(filter, handler, followOptions) {
      return stream.follow(filter, handler, followOptions?.after);
    },
    checkpoints,
    claims,
    jobs: createMemoryJobQueue(options.maxDeliveries ?? 5),
    timers: createMemoryTimerQueue(() => timerKeys),
    pending,
    // Nothing to lose touch with: it lives in this process.
    async health() {
      return { ok: true };
    },
    async close() {
      subscribers.clear();
      stream.close();
    },
  };
}

/** Checkpoints by generation id, the latest save winning. */
export function createMemoryCheckpointStore(): CheckpointStore & { forget(generationId: string): void } {
  // Kept as JSON text, as a server would keep it: a load hands out a fresh copy, and parsing text
  // is cheaper than cloning the object graph twice (once to store, once to hand out).
  const records = new Map<string, { json: string; revision: number }>();
  let revision = 0;
  return {
    forget(generationId) {
      records.delete(generationId);
    },
    async save(generationId, record) {
      revision += 1;
      records.set(generationId, {
        json: JSON.stringify({ checkpoint: record.checkpoint, params: record.params }),
        revision,
      });
      return revision;
    },
    async load(generationId) {
      const stored = records.get(generationId);
      if (stored === undefined) return undefined;
      const { checkpoint, params } = JSON.parse(stored.json) as Omit<StoredCheckpoint, 'revision'>;
      return { checkpoint, params, revision: stored.revision };
    },
  };
}

interface QueuedJob {
  job: Job;
  headers: Record<string, string>;
  attempt: number;
}

function createMemoryJobQueue(maxDeliveries: number): JobQueue {
  const queues = new Map<string, QueuedJob[]>();
  const wakers = new Map<string, Set<() => void>>();
  const dead = new Map<string, DeadLetter[]>();
  // The ids of jobs waiting or running: one enqueued again meanwhile is stored once, as JetStream's
  // deduplication stores a message id once.
  const known = new Set<string>();

  function refuse(queue: string, queued: QueuedJob, reason: DeadLetter['reason']): void {
    const letters = dead.get(queue) ?? [];
    letters.push({
      version: 1,
      queue,
      reason,
      // A job nested too deep to copy is kept by its reason alone.
      ...(!nestsDeeperThan(queued.job) && { job: structuredClone(queued.job) }),
      attempt: queued.attempt,
      time: new Date().toISOString(),
    });
    dead.set(queue, letters);
  }

  function wake(queue: string): void {
    for (const waker of wakers.get(queue) ?? []) waker();
  }

  return {
    async enqueue(queue, job, headers = {}) {
      if (known.has(job.id)) return { duplicate: true };
      known.add(job.id);
      const list = queues.get(queue) ?? [];
      list.push({ job: structuredClone(job), headers: { ...headers }, attempt: 0 });
      queues.set(queue, list);
      wake(queue);
      return { duplicate: false };
    },
    async consume(queue, handler, { concurrency }) {
      return startConsumer(queue, handler, concurrency);
    },
    async deadLetters(queue) {
      return structuredClone(dead.get(queue) ?? []);
    },
  };

  function startConsumer(queue: string, handler: JobHandler, concurrency: number): JobConsumer {
    let stopped = false;
    const running = new Set<Promise<void>>();
    const pump = (): void => {
      const list = queues.get(queue) ?? [];
      while (!stopped && running.size < concurrency && list.length > 0) {
        const queued = list.shift() as QueuedJob;
        queued.attempt += 1;
        const delivery = { attempt: queued.attempt, headers: queued.headers, maxAttempts: maxDeliveries };
        const task = handler(structuredClone(queued.job), delivery)
          .then(
            (verdict) => {
              // Done or abandoned: gone from the queue. Refused: kept among the dead letters.
              known.delete(queued.job.id);
              if (verdict?.verdict === 'refuse') refuse(queue, queued, verdict.reason);
            },
            (error: unknown) => {
              if (queued.attempt < maxDeliveries) list.push(queued);
              else {
                known.delete(queued.job.id);
                refuse(queue, queued, tooManyDeliveries(queued.attempt, error));
              }
            },
          )
          .finally(() => {
            running.delete(task);
            pump();
          });
        running.add(task);
      }
    };
    const waker = () => pump();
    const set = wakers.get(queue) ?? new Set();
    set.add(waker);
    wakers.set(queue, set);
    pump();
    // One process: a job handed back would run again beside its own still-running handler, so
    // reaching the bound only ends the wait; the jobs finish here (or fail and are queued again).
    const bound = createStopBound(() => undefined);
    return {
      async stop(options) {
        stopped = true;
        set.delete(waker);
        bound.moveTo(options?.timeoutMs);
        await bound.wait(Promise.all([...running]));
      },
      isConsuming: () => !stopped,
    };
  }
}

/** Why a job that kept failing was refused: its deliveries ran out (the last error says why). */
export function tooManyDeliveries(attempt: number, error: unknown): DeadLetter['reason'] {
  const cause = error instanceof Error ? error.message : String(error);
  return { code: 'too_many_deliveries', message: `Delivered ${attempt} times without success; last error: ${cause}` };
}
