import type { EventFilter, GenerationEvent } from '@interlude/core';

/** JetStream stream that keeps every transition: the event log a generation is replayed from. */
export const EVENTS_STREAM = 'INTERLUDE_EVENTS';
/** Root of the transition subjects: `interlude.gen.<agent>.<action>.<generation_id>.<event>`. */
export const EVENTS_SUBJECT_ROOT = 'interlude.gen';
/** KV bucket holding the latest checkpoint of each paused generation, keyed by generation id. */
export const CHECKPOINT_BUCKET = 'interlude_checkpoints';
/** Work-queue stream carrying `generateLater` / `resumeLater` jobs. */
export const JOBS_STREAM = 'INTERLUDE_JOBS';
/** Root of the job subjects: one subject per queue, `interlude.jobs.<queue>`. */
export const JOBS_SUBJECT_ROOT = 'interlude.jobs';

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
