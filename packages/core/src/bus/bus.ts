import type { Checkpoint } from '../checkpoint/checkpoint.js';
import type { CheckpointKeys } from '../trust/checkpoint-keys.js';
import type { EventName, GenerationEvent } from './events.js';

/**
 * What a runtime needs from the infrastructure around it: a transition sink with an event log,
 * a checkpoint store and a job queue. `memoryBus()` is the embedded default; `natsBus()` in
 * `@interlude/bus` is the same contract over NATS JetStream.
 */
export interface Bus {
  /**
   * Whether what the bus carries leaves this process (true for `natsBus()`): then anyone else on
   * it could forge a checkpoint, a job or an event, so a runtime on it refuses to start without a
   * checkpoint key unless signing is turned off explicitly.
   */
  readonly shared: boolean;
  /**
   * Hands the bus the runtime's keys (undefined when signing is off), so it can sign what it
   * writes and drop what it reads that was not signed with them. A bus that never leaves the
   * process has nothing to check and need not implement it.
   */
  useKeys?(keys: CheckpointKeys | undefined): void;
  /**
   * A random name for the deployment this bus belongs to, made once and the same for every
   * process on it: the default audience of checkpoints, so a checkpoint taken in one deployment is
   * refused by another even when both hold the same key.
   */
  deploymentId?(): Promise<string>;
  /** Publishes one transition and appends it to its generation's log; stored once per `event.id`. */
  publish(event: GenerationEvent): Promise<void>;
  /** A generation's event log, in order. */
  events(generationId: string): Promise<GenerationEvent[]>;
  /**
   * Live transitions from now on: an event name (`'input_requested'`), several, or a filter that
   * also narrows by agent, action or generation.
   */
  subscribe(filter: EventSelector, handler: EventHandler): Promise<Subscription>;
  readonly checkpoints: CheckpointStore;
  readonly jobs: JobQueue;
  close(): Promise<void>;
}

export interface EventFilter {
  event?: EventName | EventName[];
  agent?: string;
  action?: string;
  generationId?: string;
}

/** What `subscribe` takes: event names, or a full filter. */
export type EventSelector = EventFilter | EventName | readonly EventName[];

export type EventHandler = (event: GenerationEvent) => void | Promise<void>;

export interface Subscription {
  unsubscribe(): Promise<void>;
}

export interface StoredCheckpoint {
  checkpoint: Checkpoint;
  /** The action's params, so a resume by id can rebuild the action. */
  params: unknown;
  /** Store revision, used to claim it. */
  revision: number;
  /** Set once a resume has claimed it. */
  claimedBy?: string;
  /** A resume of it failed part-way: the next resume reuses the results that run logged. */
  interrupted?: boolean;
}

export interface CheckpointStore {
  /** Stores the latest checkpoint of a generation, replacing any earlier one. Returns its revision. */
  save(
    generationId: string,
    record: { checkpoint: Checkpoint; params: unknown; interrupted?: boolean },
  ): Promise<number>;
  load(generationId: string): Promise<StoredCheckpoint | undefined>;
  /**
   * Claims a stored checkpoint for one resume, if it is still at `revision`. Throws `ResumeError`
   * `already_resumed` when another claimant got there first. The same claimant (a redelivered job)
   * may claim again.
   */
  claim(generationId: string, revision: number, claimant: string): Promise<void>;
}

/** A background generate or resume, as carried on the work queue. snake_case, versioned. */
export interface Job {
  version: 1;
  id: string;
  kind: 'generate' | 'resume';
  agent: string;
  action: string;
  params: unknown;
  generation_id: string;
  checkpoint?: Checkpoint;
  answers?: Record<string, unknown>;
  /** W3C trace context of whoever enqueued it. */
  traceparent?: string;
  /**
   * `<key_id>.<hex>`: HMAC-SHA256 over the RFC 8785 canonical JSON of every other field, so a
   * worker runs only jobs a runtime holding its key enqueued (answers and checkpoint included).
   */
  signature?: string;
}

export interface JobDelivery {
  /** 1 on first delivery, more on redelivery after a worker died or failed. */
  attempt: number;
  headers: Record<string, string>;
}

export interface JobQueue {
  enqueue(queue: string, job: Job, headers?: Record<string, string>): Promise<void>;
  /**
   * Runs `handler` for each job, at most `concurrency` at a time. A job is acknowledged after its
   * handler resolves, redelivered when it rejects or its consumer dies.
   */
  consume(queue: string, handler: JobHandler, options: { concurrency: number }): Promise<JobConsumer>;
}

export type JobHandler = (job: Job, delivery: JobDelivery) => Promise<void>;

export interface JobConsumer {
  /**
   * Stops taking jobs and waits for the ones running to finish: for ever, or for `timeoutMs`, after
   * which the jobs still running are handed back to the queue for another delivery and `stop()`
   * resolves (a process that is shutting down cannot wait without bound). A later call with a
   * shorter `timeoutMs` moves the bound earlier: `stop({ timeoutMs: 0 })` hands them back now.
   */
  stop(options?: JobConsumerStopOptions): Promise<void>;
  /**
   * Whether it is taking jobs right now: started, not stopping, and (for a bus with a server)
   * connected to it, the answer a readiness probe wants. Buses that cannot tell leave it out.
   */
  isConsuming?(): boolean;
}

export interface JobConsumerStopOptions {
  /**
   * How long to wait for running jobs before handing them back. Handed back means delivered
   * again, to this process or another: on `natsBus()` at once (negatively acknowledged). The
   * handler of a job handed back is not interrupted, so a process should exit once `stop()`
   * resolves; `memoryBus()` has no other process to hand jobs to and leaves them running.
   */
  timeoutMs?: number;
}
