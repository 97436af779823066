import type { Checkpoint, GenerationEvent } from '@interlude/core';
import type { ClaimRecord, ClaimSlot, DeadLetter, Job, PendingRecord } from '@interlude/core/internal';
import { PAYLOAD_CODEC_ERROR_CODES } from './payload-codec-error.js';
import type { PayloadSealer } from './payload-sealer.js';

/**
 * Which parts of each stored record a codec seals. What stays readable is what routes and
 * identifies a record (subjects, event types and ids, agent, action, run, index, time, kinds,
 * holders, epochs, tool names, codes); what is sealed is what tools returned, people answered,
 * models wrote and actions were given. Each value is sealed for its own place (record and field),
 * so it opens nowhere else.
 */

/** An event with its `data` sealed. */
export function sealEvent(sealer: PayloadSealer, event: GenerationEvent): GenerationEvent {
  if (!sealer.sealing) return event;
  return { ...event, data: sealer.seal(event.data, eventContext(event)) } as GenerationEvent;
}

/** An event as published: its data opened when sealed. */
export function openEvent(sealer: PayloadSealer, event: GenerationEvent): GenerationEvent {
  return openFields(sealer, event, ['data'], () => eventContext(event));
}

const JOB_FIELDS = ['params', 'answers', 'checkpoint'] as const;

/** A job with its params, answers and checkpoint sealed (its signature, over the plain job, stays as it is). */
export function sealJob(sealer: PayloadSealer, job: Job): Job {
  return sealFields(sealer, job, JOB_FIELDS, (field) => jobContext(job, field));
}

/** A job as enqueued, its signature checkable again: its sealed fields opened. */
export function openJob(sealer: PayloadSealer, job: Job): Job {
  return openFields(sealer, job, JOB_FIELDS, (field) => jobContext(job, field));
}

/** A job's values are sealed for its generation and its id: moved to another job or generation, they do not open. */
function jobContext(job: Job, field: string): string {
  return `interlude/job/${String(job.generation_id)}/${String(job.id)}/${field}`;
}

/** What one value of the checkpoint bucket holds. */
export interface CheckpointRecord {
  version: 1;
  checkpoint: Checkpoint;
  params: unknown;
}

const CHECKPOINT_FIELDS = ['checkpoint', 'params'] as const;

/** A checkpoint record with the checkpoint and the params sealed for its generation. */
export function sealCheckpointRecord(
  sealer: PayloadSealer,
  generationId: string,
  record: CheckpointRecord,
): CheckpointRecord {
  return sealFields(sealer, record, CHECKPOINT_FIELDS, (field) => `interlude/checkpoint/${generationId}/${field}`);
}

/** A checkpoint record as saved: checkpoint and params opened when sealed. */
export function openCheckpointRecord(
  sealer: PayloadSealer,
  generationId: string,
  record: CheckpointRecord,
): CheckpointRecord {
  return openFields(sealer, record, CHECKPOINT_FIELDS, (field) => `interlude/checkpoint/${generationId}/${field}`);
}

const CLAIM_FIELDS = ['checkpoint', 'error'] as const;

/** A claim record with the checkpoint of a pause and the error of a failure sealed for its slot. */
export function sealClaim(sealer: PayloadSealer, generationId: string, slot: ClaimSlot, record: ClaimRecord) {
  return sealFields(sealer, record, CLAIM_FIELDS, (field) => `interlude/claim/${generationId}/${slot}/${field}`);
}

/** A claim record as written: its checkpoint and error opened when sealed. */
export function openClaim(sealer: PayloadSealer, generationId: string, slot: ClaimSlot, record: ClaimRecord) {
  return openFields(sealer, record, CLAIM_FIELDS, (field) => `interlude/claim/${generationId}/${slot}/${field}`);
}

const PENDING_FIELDS = ['input_requests'] as const;

/**
 * A pending-index record with its questions sealed (prompts, arguments and follow-ups quote what
 * tools and people wrote). Its ids, agent, action, slot and times stay readable, like a timer's,
 * which holds nothing else and is stored as it is.
 */
export function sealPendingRecord(sealer: PayloadSealer, record: PendingRecord): PendingRecord {
  return sealFields(sealer, record, PENDING_FIELDS, (field) => pendingContext(record.generation_id, field));
}

// Never opened by Interlude (it reads only a record's plain `asked_at`): sealed so an operator's
// view of the bucket shows no question, and bound to its generation like every sealed value.
function pendingContext(generationId: string, field: string): string {
  return `interlude/pending/${generationId}/${field}`;
}

/**
 * A dead letter with its job sealed as a job is, and the reason's message and the raw bytes
 * sealed for the queue; the reason's code stays readable. A job refused because it could not be
 * opened is kept as it came, still sealed, with its reason in the clear: that reason names key
 * ids and nothing else, and sealing it with this worker's key (the wrong one) would hide it from
 * the operators who hold the right one.
 */
export function sealDeadLetter(sealer: PayloadSealer, letter: DeadLetter): DeadLetter {
  if (!sealer.sealing || PAYLOAD_CODEC_ERROR_CODES.has(letter.reason.code)) return letter;
  const sealed = sealFields(sealer, letter, ['raw'], (field) => deadContext(letter, field));
  return {
    ...sealed,
    reason: { ...letter.reason, message: sealer.seal(letter.reason.message, deadContext(letter, 'reason')) as string },
    ...(letter.job !== undefined && { job: sealJob(sealer, letter.job) }),
  };
}

/** A dead letter as refused: its reason's message, raw bytes and job opened when sealed. */
export function openDeadLetter(sealer: PayloadSealer, letter: DeadLetter): DeadLetter {
  // Kept as it came (see `sealDeadLetter`): its reason and raw bytes are plain, its job as delivered.
  if (PAYLOAD_CODEC_ERROR_CODES.has(letter.reason.code)) {
    return letter.job === undefined ? letter : { ...letter, job: openJob(sealer, letter.job) };
  }
  const opened = openFields(sealer, letter, ['raw'], (field) => deadContext(letter, field));
  return {
    ...opened,
    reason: { ...letter.reason, message: sealer.open(letter.reason.message, deadContext(letter, 'reason')) as string },
    ...(letter.job !== undefined && { job: openJob(sealer, letter.job) }),
  };
}

/** An event's data is sealed for its generation and its id: moved to another event or generation, it does not open. */
function eventContext(event: GenerationEvent): string {
  return `interlude/event/${String(event.generation_id)}/${event.id}`;
}

function deadContext(letter: DeadLetter, field: string): string {
  return `interlude/dead/${letter.queue}/${field}`;
}

function sealFields<T extends object>(
  sealer: PayloadSealer,
  record: T,
  fields: readonly string[],
  context: (field: string) => string,
): T {
  if (!sealer.sealing) return record;
  const sealed = { ...record } as Record<string, unknown>;
  for (const field of fields) {
    if (sealed[field] !== undefined) sealed[field] = sealer.seal(sealed[field], context(field));
  }
  return sealed as T;
}

/**
 * Opens the sealed ones of `fields`; a record with none is returned as it is, uncopied, and so is
 * anything that is not a record at all (a malformed job is the handler's to refuse).
 */
function openFields<T extends object>(
  sealer: PayloadSealer,
  record: T,
  fields: readonly string[],
  context: (field: string) => string,
): T {
  if (typeof record !== 'object' || record === null) return record;
  let opened: Record<string, unknown> | undefined;
  for (const field of fields) {
    const value = (record as Record<string, unknown>)[field];
    const plain = sealer.open(value, context(field));
    if (plain === value) continue;
    opened ??= { ...record } as Record<string, unknown>;
    opened[field] = plain;
  }
  return (opened ?? record) as T;
}
