import { type Checkpoint, type CheckpointStore, ResumeError, type StoredCheckpoint } from '@interlude/core';
import type { KV, KvEntry } from '@nats-io/kv';
import { headers as createHeaders } from '@nats-io/transport-node';
import { EXPECTED_LAST_SUBJECT_SEQUENCE_HEADER, type JetStreamRequests } from './jetstream-requests.js';
import { decodeJson, encodeJson } from './json-codec.js';
import { type RetryOptions, retryTransient } from './retry.js';
import { assertSubjectToken, CHECKPOINT_BUCKET } from './subjects.js';

/** What one KV value holds: snake_case and versioned, like everything that leaves a process. */
interface CheckpointRecord {
  version: 1;
  checkpoint: Checkpoint;
  params: unknown;
  /** A resume of it failed part-way: the next resume reuses the results that run logged. */
  interrupted?: boolean;
  /** Who claimed this checkpoint for a resume, and at which revision they found it. */
  claimed_by?: string;
  claimed_revision?: number;
}

/**
 * Checkpoints in the KV bucket `interlude_checkpoints`, one key per generation id. A claim is a
 * revision-checked update: of two concurrent claims the server accepts exactly one, and the
 * loser reads the winner's record and gets `already_resumed`. The claimant who won may claim
 * again (a redelivered job), with the revision it claimed or the one it wrote.
 */
export function createKvCheckpointStore(
  resources: () => Promise<{ checkpoints: KV; checkpointsDirect: boolean; requests: JetStreamRequests }>,
  retry: RetryOptions,
): CheckpointStore {
  // The record each recent load saw: a resume loads, then claims the same revision, so the claim
  // can try its revision-checked update at once instead of reading the key a second time.
  const recentlyLoaded = new Map<string, { record: CheckpointRecord; revision: number }>();
  const read = async (generationId: string) => {
    const { checkpoints: bucket, checkpointsDirect, requests } = await resources();
    const key = assertSubjectToken('generation id', generationId);
    if (checkpointsDirect) return retryTransient(() => directGet(requests, key), retry);
    const entry = await retryTransient(() => bucket.get(key), retry);
    return entry === null || entry.operation !== 'PUT' ? undefined : toRecord(entry);
  };
  const remember = (generationId: string, found: { record: CheckpointRecord; revision: number }) => {
    recentlyLoaded.delete(generationId);
    recentlyLoaded.set(generationId, found);
    if (recentlyLoaded.size > 1_000) recentlyLoaded.delete(recentlyLoaded.keys().next().value as string);
  };

  return {
    async save(generationId, { checkpoint, params, interrupted }) {
      const { requests } = await resources();
      const record: CheckpointRecord = { version: 1, checkpoint, params };
      if (interrupted === true) record.interrupted = true;
      const subject = keySubject(assertSubjectToken('generation id', generationId));
      const data = encodeJson(record);
      const ack = await retryTransient(() => requests.publish(subject, data), retry);
      return ack.seq;
    },

    async load(generationId) {
      const found = await read(generationId);
      if (found === undefined) return undefined;
      remember(generationId, found);
      const stored: StoredCheckpoint = {
        checkpoint: found.record.checkpoint,
        params: found.record.params,
        revision: found.revision,
      };
      if (found.record.claimed_by !== undefined) stored.claimedBy = found.record.claimed_by;
      if (found.record.interrupted === true) stored.interrupted = true;
      return stored;
    },

    async claim(generationId, revision, claimant) {
      const { requests } = await resources();
      const subject = keySubject(assertSubjectToken('generation id', generationId));
      let seen = recentlyLoaded.get(generationId);
      recentlyLoaded.delete(generationId);
      for (;;) {
        const found = seen?.revision === revision ? seen : await read(generationId);
        seen = undefined;
        if (found === undefined) {
          throw new ResumeError('not_found', `No checkpoint is stored for generation ${generationId}`);
        }
        const { record } = found;
        if (record.claimed_by !== undefined) {
          const sameClaim = revision === found.revision || revision === record.claimed_revision;
          if (record.claimed_by === claimant && sameClaim) return;
          throw alreadyResumed(generationId);
        }
        if (found.revision !== revision) throw alreadyResumed(generationId);
        const claimed: CheckpointRecord = { ...record, claimed_by: claimant, claimed_revision: revision };
        try {
          // A KV update: stored only if the key's last revision is still the one we claim.
          const headers = createHeaders();
          headers.set(EXPECTED_LAST_SUBJECT_SEQUENCE_HEADER, String(revision));
          const data = encodeJson(claimed);
          await retryTransient(() => requests.publish(subject, data, headers), retry);
          return;
        } catch (error) {
          // Someone else moved the key first, or our own update landed and only its answer was
          // lost: read again and decide from what is stored now.
          if (!isWrongRevision(error)) throw error;
        }
      }
    },
  };
}

/** The subject a key of the checkpoint bucket is written on (the KV convention, `$KV.<bucket>.<key>`). */
function keySubject(key: string): string {
  return `$KV.${CHECKPOINT_BUCKET}.${key}`;
}

/**
 * A key's latest value through JetStream's direct get (what nats.js's kv.get sends when the
 * bucket allows it), on the bus's own request path: `$JS.API.DIRECT.GET.<stream>.<key subject>`
 * answers with the stored message, its sequence (the revision) in `Nats-Sequence`, a delete or
 * purge marked by `KV-Operation`, or a 404 status when there is none.
 */
async function directGet(
  requests: JetStreamRequests,
  key: string,
): Promise<{ record: CheckpointRecord; revision: number } | undefined> {
  const reply = await requests.request(`$JS.API.DIRECT.GET.KV_${CHECKPOINT_BUCKET}.${keySubject(key)}`, EMPTY);
  const headers = reply.headers;
  const status = headers?.code ?? 0;
  if (status === 404) return undefined;
  if (status !== 0 || headers === undefined) {
    const error = new Error(`direct get of ${key}: ${status} ${headers?.description ?? 'no headers'}`);
    // A server-side hiccup (5xx, 408) is retried like any transient error; anything else is not.
    if (status >= 500 || status === 408) error.name = 'JetStreamStatusError';
    throw error;
  }
  const operation = headers.get('KV-Operation');
  if (operation === 'DEL' || operation === 'PURGE') return undefined;
  return { record: decodeJson<CheckpointRecord>(reply.data), revision: Number(headers.get('Nats-Sequence')) };
}

const EMPTY = new Uint8Array(0);

function toRecord(entry: KvEntry): { record: CheckpointRecord; revision: number } {
  return { record: decodeJson<CheckpointRecord>(entry.value), revision: entry.revision };
}

function alreadyResumed(generationId: string): ResumeError {
  return new ResumeError('already_resumed', `Generation ${generationId} was already resumed from this checkpoint`);
}

function isWrongRevision(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 10071 || (error instanceof Error && /wrong last sequence/i.test(error.message));
}
