import { type EventFilter, type GenerationEvent, InterludeError } from '@interlude/core';
import type { ClaimSlot } from '@interlude/core/internal';

/**
 * Every name a bus uses on NATS (streams, buckets, subjects, consumers), from its `prefix`.
 * Without one they are the names below; with `prefix: 'acme'` each stream, bucket and consumer
 * name starts `acme_` and each subject `acme.`, so two deployments on one NATS (each with its own
 * prefix) share nothing: not a job, an event, a checkpoint, a claim, a deadline nor the
 * deployment id (kept in the checkpoint bucket).
 */
export interface NatsNames {
  /** The prefix as given; undefined: none. */
  readonly prefix: string | undefined;
  /** JetStream stream that keeps every transition: the event log a generation is replayed from. */
  readonly eventsStream: string;
  /** Root of the transition subjects: `<root>.<agent>.<action>.<generation_id>.<event>`. */
  readonly eventsSubjectRoot: string;
  /** KV bucket holding the latest checkpoint of each paused generation, keyed by generation id. */
  readonly checkpointBucket: string;
  /** The stream JetStream keeps the checkpoint bucket in (`KV_<bucket>`). */
  readonly checkpointStream: string;
  /** Work-queue stream carrying `generateLater` / `resumeLater` jobs. */
  readonly jobsStream: string;
  /** Root of the job subjects: one subject per queue, `<root>.<queue>`. */
  readonly jobsSubjectRoot: string;
  /**
   * Stream of write-once claim slots (`max_msgs_per_subject: 1`, `discard_new_per_subject`): who
   * resumes a checkpoint, who runs a job, and each step a job's run takes, decided in log order.
   */
  readonly claimsStream: string;
  /** Root of the claim subjects: `<root>.<generation_id>.<slot>`. */
  readonly claimsSubjectRoot: string;
  /** Stream of refused jobs, kept where operators can read them. */
  readonly deadStream: string;
  /** Root of the dead-letter subjects: one per queue, `<root>.<queue>`. */
  readonly deadSubjectRoot: string;
  /** Work-queue stream of pause deadlines, one message per pause, held until due (`natsBus().timers`). */
  readonly timersStream: string;
  /** Root of the timer subjects: `<root>.<agent>.<generation_id>`. */
  readonly timersSubjectRoot: string;
  /** KV bucket listing paused generations for `runtime.pending()`, keyed by generation id. */
  readonly pendingBucket: string;
  /** The stream JetStream keeps the pending index in (`KV_<bucket>`). */
  readonly pendingStream: string;
  /** Every stream the bus keeps, the buckets' included. */
  readonly allStreams: readonly string[];
  /** The subject one transition is published on. */
  eventSubject(event: GenerationEvent): string;
  /** Every transition of one generation, whatever its agent and action: a single filter subject. */
  generationSubject(generationId: string): string;
  /**
   * The subjects a filter listens on: one per event name (none given means every event), with a
   * `*` for each part the filter leaves open.
   */
  filterSubjects(filter: EventFilter): string[];
  /** The subject a queue's jobs are published on. */
  jobSubject(queue: string): string;
  /** The durable consumer every worker of a queue shares. */
  jobConsumerName(queue: string): string;
  /** The subject of one slot of a generation's claim log. */
  claimSubject(generationId: string, slot: ClaimSlot): string;
  /** The subject a generation's deadlines are kept on. */
  timerSubject(agent: string, generationId: string): string;
  /** The durable consumer every worker serving `agent` shares to meet its deadlines. */
  timerConsumerName(agent: string): string;
  /** The subject a queue's refused jobs are kept on. */
  deadLetterSubject(queue: string): string;
  /** The subject a key of the checkpoint bucket is written on (the KV convention, `$KV.<bucket>.<key>`). */
  checkpointKeySubject(key: string): string;
  /** The subject a key of the pending index is written on. */
  pendingKeySubject(key: string): string;
}

/** What a prefix may hold: what every stream, bucket, consumer and subject token takes. */
const PREFIX_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/;

/**
 * The names of a bus with `prefix` (none: the default names). Throws an `InterludeError` coded
 * `invalid_prefix` for a prefix that is not 1 to 32 letters, digits, `_` or `-`, starting with a
 * letter or a digit: before any name is made, so nothing connects under it.
 */
export function natsNames(prefix?: string): NatsNames {
  if (prefix !== undefined && (typeof prefix !== 'string' || !PREFIX_PATTERN.test(prefix))) {
    throw new InterludeError(
      'invalid_prefix',
      `prefix must be 1 to 32 letters, digits, _ or -, starting with a letter or digit, got ${JSON.stringify(prefix)}`,
    );
  }
  const name = (base: string) => (prefix === undefined ? base : `${prefix}_${base}`);
  const subject = (base: string) => (prefix === undefined ? base : `${prefix}.${base}`);
  const eventsSubjectRoot = subject('interlude.gen');
  const jobsSubjectRoot = subject('interlude.jobs');
  const claimsSubjectRoot = subject('interlude.claims');
  const timersSubjectRoot = subject('interlude.timers');
  const deadSubjectRoot = subject('interlude.dead');
  const checkpointBucket = name('interlude_checkpoints');
  const pendingBucket = name('interlude_pending');
  const streams = {
    eventsStream: name('INTERLUDE_EVENTS'),
    jobsStream: name('INTERLUDE_JOBS'),
    claimsStream: name('INTERLUDE_CLAIMS'),
    deadStream: name('INTERLUDE_DEAD'),
    checkpointStream: `KV_${checkpointBucket}`,
    timersStream: name('INTERLUDE_TIMERS'),
    pendingStream: `KV_${pendingBucket}`,
  };
  const eventPrefix = (filter: EventFilter) => {
    const part = (kind: string, value: string | undefined) =>
      value === undefined ? '*' : assertSubjectToken(kind, value);
    return [
      eventsSubjectRoot,
      part('agent', filter.agent),
      part('action', filter.action),
      part('generation id', filter.generationId),
    ].join('.');
  };
  return {
    prefix,
    ...streams,
    eventsSubjectRoot,
    jobsSubjectRoot,
    claimsSubjectRoot,
    timersSubjectRoot,
    deadSubjectRoot,
    checkpointBucket,
    pendingBucket,
    allStreams: Object.values(streams),
    eventSubject: (event) =>
      [
        eventsSubjectRoot,
        assertSubjectToken('agent', event.agent),
        assertSubjectToken('action', event.action),
        assertSubjectToken('generation id', event.generation_id),
        assertSubjectToken('event', event.event),
      ].join('.'),
    generationSubject: (generationId) =>
      `${eventsSubjectRoot}.*.*.${assertSubjectToken('generation id', generationId)}.*`,
    filterSubjects(filter) {
      const start = eventPrefix(filter);
      if (filter.event === undefined) return [`${start}.*`];
      const events = [...new Set([filter.event].flat())];
      return events.map((event) => `${start}.${assertSubjectToken('event', event)}`);
    },
    jobSubject: (queue) => `${jobsSubjectRoot}.${assertSubjectToken('queue', queue)}`,
    jobConsumerName: (queue) => name(`interlude_jobs_${assertSubjectToken('queue', queue)}`),
    claimSubject: (generationId, slot) =>
      `${claimsSubjectRoot}.${assertSubjectToken('generation id', generationId)}.${assertSubjectToken('claim slot', String(slot))}`,
    timerSubject: (agent, generationId) =>
      `${timersSubjectRoot}.${assertSubjectToken('agent', agent)}.${assertSubjectToken('generation id', generationId)}`,
    timerConsumerName: (agent) => name(`interlude_timers_${assertSubjectToken('agent', agent)}`),
    deadLetterSubject: (queue) => `${deadSubjectRoot}.${assertSubjectToken('queue', queue)}`,
    checkpointKeySubject: (key) => `$KV.${checkpointBucket}.${key}`,
    pendingKeySubject: (key) => `$KV.${pendingBucket}.${key}`,
  };
}

/**
 * A subject token may not be empty, hold a dot (it would shift every later token) or a wildcard
 * (it would widen a subscription), nor whitespace. Names are checked here, once, so a bad agent
 * name fails loudly instead of publishing where no subscriber looks.
 */
export function assertSubjectToken(kind: string, value: string): string {
  if (value.length === 0 || /[.*>\s]/.test(value)) {
    throw new TypeError(`${kind} "${value}" cannot be used in a NATS subject: no dots, wildcards or spaces`);
  }
  return value;
}
