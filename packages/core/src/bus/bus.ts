import type { Checkpoint } from '../checkpoint/checkpoint.js';
import type { AskedInputRequestJSON } from '../input-request/input-request-json.js';
import type { CheckpointKeys } from '../trust/checkpoint-keys.js';
import type { EventName, EventOf, GenerationEvent } from './events.js';

/**
 * What a runtime needs from the infrastructure around it: a transition sink with an event log,
 * a checkpoint store, a claim log and a job queue. `memoryBus()` is the embedded default;
 * `natsBus()` in `@interlude/bus` is the same contract over NATS JetStream.
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
  /**
   * A generation's event log, in order. Of a run taken over by another worker only the latest
   * epoch is kept (`latestEpochs`): the events a stalled holder published before it was fenced
   * out are stored, but not part of the log (`everyEpoch: true` reads them too, as a run that
   * follows them must). The failures that ended earlier attempts are kept.
   */
  events(generationId: string, options?: { everyEpoch?: boolean }): Promise<GenerationEvent[]>;
  /**
   * Live transitions from now on: an event name (`'input_requested'`), several, or a filter that
   * also narrows by agent, action or generation. The handler's event is narrowed to the names
   * selected: `subscribe('input_requested', (event) => event.data.input_requests)`.
   */
  subscribe<const Selector extends EventSelector>(
    filter: Selector,
    handler: EventHandler<SelectedEvent<Selector>>,
  ): Promise<Subscription>;
  /**
   * The event log in its one order, from a position on and then live: each event with its
   * position there (an opaque string). With `after` (a position `follow` handed out, in any
   * process on the bus) it starts right after it, with whatever of the log the bus still keeps;
   * without, from now on. What `interlude-gateway`'s `Last-Event-ID` resumes from. A position the
   * bus cannot read is a `TypeError`. Events are the verified, opened ones `subscribe` hands out.
   */
  follow?(filter: EventFilter, handler: LoggedEventHandler, options?: { after?: string }): Promise<Subscription>;
  readonly checkpoints: CheckpointStore;
  /** Write-once slots that decide who runs a generation (claims, fencing, tool intents). */
  readonly claims: ClaimLog;
  readonly jobs: JobQueue;
  /**
   * The deadlines of pauses whose questions expire, kept until due. A bus without it never
   * expires a question (answers after the deadline are still refused with `expired`).
   */
  readonly timers?: TimerQueue;
  /** The index `runtime.pending()` reads: one record per generation paused on a question. */
  readonly pending?: PendingIndex;
  /**
   * Every generation whose event log holds a pause (an `input_requested` event), answered since or
   * not: where `runtime.rebuildPending()` starts rebuilding the pending index from the logs. A bus
   * that cannot list its logs leaves it out.
   */
  pausedGenerations?(): Promise<string[]>;
  /**
   * Whether the bus can do its work now, and if not why: not connected, a stream without a
   * leader, set up refused. A bus in one process is always ok.
   */
  health?(): Promise<BusHealth>;
  close(): Promise<void>;
}

/** What `bus.health()` answers, and what a bus's `onStatus` hears on every change. */
export interface BusHealth {
  ok: boolean;
  /** Why not, when not ok: what is unavailable, in words a person acts on. */
  reason?: string;
}

/** A pause's deadline, as kept until it is due. snake_case, versioned. */
export interface InputTimer {
  version: 1;
  generation_id: string;
  agent: string;
  action: string;
  /** The slot a resume of the pause claims: a timer whose pause was resumed already finds it taken. */
  claim_slot: number;
  /** The checkpoint's `input_expires_at`. */
  due_at: string;
  /** With keys, the id of the key that signed it (`bus/sign-timer.ts`): a bus signs what it schedules. */
  key_id?: string;
  /** HMAC-SHA256 in base64url over the rest: a bus meets only a timer that verifies. */
  signature?: string;
}

/**
 * Deadlines kept until due. `memoryBus()` keeps them in process; `natsBus()` in the stream
 * `INTERLUDE_TIMERS`, so a deadline outlives the process that set it and any worker meets it.
 */
export interface TimerQueue {
  /** Keeps a timer; the same generation and slot scheduled again is kept once. */
  schedule(timer: InputTimer): Promise<void>;
  /**
   * Hands each timer of the named agents (`memoryBus()`: of every agent; `natsBus()`: of those
   * named, none when `agents` is left out) to `handler`
   * once it is due, at least once: a handler that rejects, or whose process dies, gets it again
   * a little later. The handler must tolerate a timer whose pause was answered or cancelled
   * meanwhile: the claim log refuses its resume. What becomes of the timer is the handler's
   * verdict (`TimerVerdict`).
   */
  consume(handler: TimerHandler, options?: { agents?: readonly string[] }): Promise<{ stop(): Promise<void> }>;
}

/**
 * What a timer's handler tells the queue: the deadline is settled (`done`, or nothing: the timer
 * is acknowledged and never comes back), or the deadline's run was taken over by another delivery
 * of the timer (`abandon`: that delivery holds the timer now and settles it, so this one neither
 * acknowledges it, which would settle it under the run that took over, nor hands it back, which
 * would have it taken over again; if that delivery dies, the timer comes again as after any death).
 */
export type TimerVerdict = { verdict: 'done' } | { verdict: 'abandon' };

/** Meets one due timer; resolving with no verdict settles it. */
// biome-ignore lint/suspicious/noConfusingVoidType: an `async` handler that returns nothing resolves to void.
export type TimerHandler = (timer: InputTimer) => Promise<TimerVerdict | void>;

/** One paused generation, as the pending index keeps it. snake_case, versioned. */
export interface PendingRecord {
  version: 1;
  generation_id: string;
  agent: string;
  action: string;
  /** The slot a resume claims: while it is free (or given back), the questions wait. */
  claim_slot: number;
  input_requests: AskedInputRequestJSON[];
  asked_at: string;
  input_expires_at?: string;
  /** The deployment its checkpoint was signed for: `runtime.pending()` lists its own deployment's. */
  audience?: string;
}

/**
 * A generation the pending index names: the key of one of its records. `askedAt` is that record's
 * `asked_at` when the record under the key is intact (readable, naming that generation), else
 * undefined (deleted, altered, written under another key, or sealed with a key not held).
 */
export interface PendingEntry {
  generationId: string;
  askedAt: string | undefined;
}

/**
 * Where paused generations are listed. Records are written at each pause and removed when the
 * generation completes or is cancelled. Nothing in a record is believed but its key (and when it
 * was asked, an order): `runtime.pending()` reads every other fact, and whether the generation
 * waits, from the generation's own signed records and the claim log, so a record left behind by a
 * crash or altered by a client without the key never shows a question that is not waiting.
 */
export interface PendingIndex {
  /** Stores the generation's latest pause, replacing an earlier one. */
  put(record: PendingRecord): Promise<void>;
  remove(generationId: string): Promise<void>;
  /**
   * Every generation the index names, once each, by key: every key a record was written under and
   * `remove` has not removed. A record another client deleted or overwrote still names its key
   * (on NATS the key's subject keeps the marker), so such a write hides no question.
   */
  entries(): Promise<PendingEntry[]>;
}

export interface EventFilter {
  event?: EventName | EventName[];
  agent?: string;
  action?: string;
  generationId?: string;
}

/** What `subscribe` takes: event names, or a full filter. */
export type EventSelector = EventFilter | EventName | readonly EventName[];

/** The names a selector lets through: those it names, every one when it names none. */
export type SelectedName<Selector> = Selector extends EventName
  ? Selector
  : Selector extends readonly (infer Name extends EventName)[]
    ? Name
    : Selector extends { event: infer Named }
      ? SelectedName<Named>
      : EventName;

/** The event a subscription with `Selector` hears: narrowed by its event names. */
export type SelectedEvent<Selector> = EventOf<SelectedName<Selector>>;

export type EventHandler<Event extends GenerationEvent = GenerationEvent> = (event: Event) => void | Promise<void>;

/** Handles an event of the log read with `follow`, with its position there. */
export type LoggedEventHandler = (event: GenerationEvent, position: string) => void | Promise<void>;

export interface Subscription {
  unsubscribe(): Promise<void>;
}

export interface StoredCheckpoint {
  /** The latest pause. */
  checkpoint: Checkpoint;
  /** The action's params, so a resume by id can rebuild the action. */
  params: unknown;
  /** Store revision: grows with every save. */
  revision: number;
}

/**
 * The latest checkpoint of each paused generation, so a resume by generation id (`runtime.answer`)
 * finds it. It decides nothing: who may resume is the claim log's to say, so a load that comes
 * back empty or stale never lets a resume through.
 */
export interface CheckpointStore {
  /** Stores the latest checkpoint of a generation, replacing any earlier one. Returns its revision. */
  save(generationId: string, record: { checkpoint: Checkpoint; params: unknown }): Promise<number>;
  load(generationId: string): Promise<StoredCheckpoint | undefined>;
}

/** A slot of a generation's claim log: the numbered chain every run of the generation writes in turn (0, 1, 2, …). */
export type ClaimSlot = number;

/** What a slot records: a run starting, taken over, about to run a tool, or at its stop. */
export type ClaimKind = 'claim' | 'takeover' | 'tool_started' | 'paused' | 'finished' | 'released';

/**
 * One record of the claim log, written once and never changed. snake_case and versioned like
 * everything that leaves a process.
 */
export interface ClaimRecord {
  version: 1;
  kind: ClaimKind;
  /**
   * The generation and slot the record was written for. Core always writes both, and its
   * readers refuse a record read from another slot than the one it names (`misplaced_record`).
   */
  generation_id?: string;
  slot?: ClaimSlot;
  /** Random per run (per delivery of a job): a retried write whose answer was lost knows itself by it. */
  holder: string;
  /** The job that holds the run, so another delivery of the same job is recognised. */
  claimant?: string;
  /** Fencing token: 1 for a claim, one more for each takeover of the same run. */
  epoch: number;
  /** `tool_started`: the call about to run. */
  tool_call_id?: string;
  tool_name?: string;
  /** `paused`: the checkpoint of the pause, so a successor can finish storing and announcing it. */
  checkpoint?: Checkpoint;
  /** `finished` by a failure retrying cannot mend: what to announce if its holder could not. */
  error?: { name: string; message: string; code?: string };
  time: string;
  /** Which key signed it: the key of the checkpoint (or job) its run claimed, else the signing key. */
  key_id?: string;
  /**
   * HMAC-SHA256 (base64url) over the RFC 8785 canonical JSON of every other field (generation,
   * slot and epoch included). Core's readers skip a record that does not verify: a forgery holds
   * no slot (`claims/signed-claims.ts`).
   */
  signature?: string;
}

/** A write's answer: stored, or the record another writer stored first. */
export type ClaimWrite = { stored: true } | { stored: false; record: ClaimRecord };

/**
 * Write-once slots per generation, decided in one order for every writer (a replicated log's
 * order, not a check made beside it): of two writes to one slot exactly one is stored, and every
 * later read, from any process, sees that one. Core runs the protocol on top (claiming,
 * fencing, taking over); a bus only keeps the slots.
 */
export interface ClaimLog {
  /** Stores `record` in the slot if it is free; otherwise answers with what the slot holds. */
  write(generationId: string, slot: ClaimSlot, record: ClaimRecord): Promise<ClaimWrite>;
  /** What the slot holds, read where writes are decided (never a replica that may lag). */
  read(generationId: string, slot: ClaimSlot): Promise<ClaimRecord | undefined>;
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
  /** A generate job's: the conversation of the generation that enqueued it, if one did, which the new generation joins. */
  conversation_id?: string;
  /** The resume a pause's deadline makes (`RunControl.expiring`): the answers are the expiry outcomes. */
  expiry?: true;
  /** Which key signed it (the first 8 hex digits of the key's SHA-256). */
  key_id?: string;
  /**
   * HMAC-SHA256 (base64url) over the RFC 8785 canonical JSON of every other field, `key_id`
   * included, so a worker runs only jobs a runtime holding its key enqueued (answers and
   * checkpoint included).
   */
  signature?: string;
}

export interface JobDelivery {
  /** 1 on first delivery, more on redelivery after a worker died, stalled or failed. */
  attempt: number;
  headers: Record<string, string>;
  /** Deliveries a job gets; one delivered more often is refused (dead-lettered), not run. */
  maxAttempts: number;
}

/**
 * What a handler tells the queue to do with a job: acknowledge it (`done`), leave it alone
 * (`abandon`: its run was taken over by another delivery, which the server already handed the
 * job to, so neither an ack nor a nak of this one is true), or refuse it for good (`refuse`: it
 * goes to the queue's dead letters and is acknowledged, so it never comes back). A handler that
 * rejects hands the job back for another delivery, until it has had `maxAttempts`.
 */
export type JobVerdict =
  | { verdict: 'done' }
  | { verdict: 'abandon' }
  | { verdict: 'refuse'; reason: { code: string; message: string } };

/** A job that will never run, kept where operators can read it. snake_case, versioned. */
export interface DeadLetter {
  version: 1;
  queue: string;
  reason: { code: string; message: string };
  /** The job, when it could be read as one. */
  job?: Job;
  /** Its bytes as delivered (base64), when it could not. */
  raw?: string;
  attempt: number;
  time: string;
}

/** What an enqueue did: stored the job, or found a job of the same id there already (and stored nothing). */
export interface Enqueued {
  /**
   * A job with this id was enqueued before and is still known to the queue: `memoryBus()` while it
   * waits or runs, `natsBus()` for the jobs stream's duplicate window (an hour by default).
   */
  duplicate: boolean;
}

export interface JobQueue {
  /** Stores a job for a worker; a job whose id the queue still knows is stored once (`duplicate`). */
  enqueue(queue: string, job: Job, headers?: Record<string, string>): Promise<Enqueued>;
  /**
   * Runs `handler` for each job, at most `concurrency` at a time. A job is answered as its
   * handler's verdict says (acknowledged when it resolves with none), redelivered when it rejects
   * or its consumer dies, and dead-lettered once it has had `maxAttempts` deliveries.
   */
  consume(queue: string, handler: JobHandler, options: { concurrency: number }): Promise<JobConsumer>;
  /** The queue's refused jobs, oldest first. */
  deadLetters(queue: string): Promise<DeadLetter[]>;
}

/** Handles one delivery; resolving with no verdict acknowledges the job, as handlers always did. */
// biome-ignore lint/suspicious/noConfusingVoidType: an `async` handler that returns nothing resolves to void.
export type JobHandler = (job: Job, delivery: JobDelivery) => Promise<JobVerdict | void>;

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
