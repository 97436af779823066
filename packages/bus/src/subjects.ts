import type { EventFilter, GenerationEvent } from '@interlude/core';
import type { ClaimSlot } from '@interlude/core/internal';

/** JetStream stream that keeps every transition: the event log a generation is replayed from. */
export const EVENTS_STREAM = 'INTERLUDE_EVENTS';
/** Root of the transition subjects: `interlude.gen.<agent>.<action>.<generation_id>.<event>`. */
export const EVENTS_SUBJECT_ROOT = 'interlude.gen';
/** KV bucket holding the latest checkpoint of each paused generation, keyed by generation id. */
export const CHECKPOINT_BUCKET = 'interlude_checkpoints';
/** The stream JetStream keeps the checkpoint bucket in (`KV_<bucket>`). */
export const CHECKPOINT_STREAM = `KV_${CHECKPOINT_BUCKET}`;
/** Work-queue stream carrying `generateLater` / `resumeLater` jobs. */
export const JOBS_STREAM = 'INTERLUDE_JOBS';
/** Root of the job subjects: one subject per queue, `interlude.jobs.<queue>`. */
export const JOBS_SUBJECT_ROOT = 'interlude.jobs';
/**
 * Stream of write-once claim slots (`max_msgs_per_subject: 1`, `discard_new_per_subject`): who
 * resumes a checkpoint, who runs a job, and each step a job's run takes, decided in log order.
 */
export const CLAIMS_STREAM = 'INTERLUDE_CLAIMS';
/** Root of the claim subjects: `interlude.claims.<generation_id>.<slot>`. */
export const CLAIMS_SUBJECT_ROOT = 'interlude.claims';
/** Stream of refused jobs, kept where operators can read them. */
export const DEAD_STREAM = 'INTERLUDE_DEAD';
/** Work-queue stream of pause deadlines, one message per pause, held until due (`natsBus().timers`). */
export const TIMERS_STREAM = 'INTERLUDE_TIMERS';
/** Root of the timer subjects: `interlude.timers.<agent>.<generation_id>`. */
export const TIMERS_SUBJECT_ROOT = 'interlude.timers';
/** KV bucket listing paused generations for `runtime.pending()`, keyed by generation id. */
export const PENDING_BUCKET = 'interlude_pending';
/** The stream JetStream keeps the pending index in (`KV_<bucket>`). */
export const PENDING_STREAM = `KV_${PENDING_BUCKET}`;
/** Every stream the bus keeps, the buckets' included. */
export const ALL_STREAMS: readonly string[] = [
  EVENTS_STREAM,
  JOBS_STREAM,
  CLAIMS_STREAM,
  DEAD_STREAM,
  CHECKPOINT_STREAM,
  TIMERS_STREAM,
  PENDING_STREAM,
];
/** Root of the dead-letter subjects: one per queue, `interlude.dead.<queue>`. */
export const DEAD_SUBJECT_ROOT = 'interlude.dead';

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

/** The subject one transition is published on. */
export function eventSubject(event: GenerationEvent): string {
  return [
    EVENTS_SUBJECT_ROOT,
    assertSubjectToken('agent', event.agent),
    assertSubjectToken('action', event.action),
    assertSubjectToken('generation id', event.generation_id),
    assertSubjectToken('event', event.event),
  ].join('.');
}

/** Every transition of one generation, whatever its agent and action: a single filter subject. */
export function generationSubject(generationId: string): string {
  return `${EVENTS_SUBJECT_ROOT}.*.*.${assertSubjectToken('generation id', generationId)}.*`;
}

/**
 * The subjects a filter listens on: one per event name (none given means every event), with a
 * `*` for each part the filter leaves open.
 */
export function filterSubjects(filter: EventFilter): string[] {
  const part = (kind: string, value: string | undefined) =>
    value === undefined ? '*' : assertSubjectToken(kind, value);
  const prefix = [
    EVENTS_SUBJECT_ROOT,
    part('agent', filter.agent),
    part('action', filter.action),
    part('generation id', filter.generationId),
  ].join('.');
  if (filter.event === undefined) return [`${prefix}.*`];
  const events = [...new Set([filter.event].flat())];
  return events.map((event) => `${prefix}.${assertSubjectToken('event', event)}`);
}

/** The subject a queue's jobs are published on. */
export function jobSubject(queue: string): string {
  return `${JOBS_SUBJECT_ROOT}.${assertSubjectToken('queue', queue)}`;
}

/** The durable consumer every worker of a queue shares. */
export function jobConsumerName(queue: string): string {
  return `interlude_jobs_${assertSubjectToken('queue', queue)}`;
}

/** The subject of one slot of a generation's claim log. */
export function claimSubject(generationId: string, slot: ClaimSlot): string {
  return `${CLAIMS_SUBJECT_ROOT}.${assertSubjectToken('generation id', generationId)}.${assertSubjectToken('claim slot', String(slot))}`;
}

/** The subject a generation's deadlines are kept on. */
export function timerSubject(agent: string, generationId: string): string {
  return `${TIMERS_SUBJECT_ROOT}.${assertSubjectToken('agent', agent)}.${assertSubjectToken('generation id', generationId)}`;
}

/** The durable consumer every worker serving `agent` shares to meet its deadlines. */
export function timerConsumerName(agent: string): string {
  return `interlude_timers_${assertSubjectToken('agent', agent)}`;
}

/** The subject a queue's refused jobs are kept on. */
export function deadLetterSubject(queue: string): string {
  return `${DEAD_SUBJECT_ROOT}.${assertSubjectToken('queue', queue)}`;
}
