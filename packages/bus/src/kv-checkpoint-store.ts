import type { CheckpointStore } from '@interlude/core/internal';
import type { PayloadSealer } from './codec/payload-sealer.js';
import { type CheckpointRecord, openCheckpointRecord, sealCheckpointRecord } from './codec/sealed-records.js';
import type { JetStreamRequests } from './jetstream-requests.js';
import { decodeJson, encodeJson } from './json-codec.js';
import { type RetryOptions, retryTransient } from './retry.js';
import { lastMessageOn, purgeSubject } from './stream-message-get.js';
import { assertSubjectToken, type NatsNames } from './subjects.js';

/**
 * Checkpoints in the KV bucket `interlude_checkpoints`, one key per generation id: the latest
 * pause of each generation, so a resume by id finds it. The store decides nothing about who may
 * resume (the claim log does), so a load that comes back empty or stale lets nothing through.
 * Keys are read with a direct get on one server, from the stream leader with replicas. A value
 * is `{ version: 1, checkpoint, params }`, snake_case like everything that leaves a process, with
 * the checkpoint and params sealed when the bus has a codec.
 */
export function createKvCheckpointStore(
  resources: () => Promise<{ checkpointsDirect: boolean; requests: JetStreamRequests; names: NatsNames }>,
  retry: RetryOptions,
  sealer: PayloadSealer,
): CheckpointStore & { remove(generationId: string): Promise<void> } {
  return {
    /**
     * Removes a generation's checkpoint for good (a purge of its key's subject: no marker left),
     * once it has completed: nothing resumes it any more (the claim log refuses a second resume).
     */
    async remove(generationId) {
      const { requests, names } = await resources();
      const subject = names.checkpointKeySubject(assertSubjectToken('generation id', generationId));
      await retryTransient((timeoutMs) => purgeSubject(requests, names.checkpointStream, subject, timeoutMs), retry);
    },

    async save(generationId, { checkpoint, params }) {
      const { requests, names } = await resources();
      const subject = names.checkpointKeySubject(assertSubjectToken('generation id', generationId));
      const data = encodeJson(sealCheckpointRecord(sealer, generationId, { version: 1, checkpoint, params }));
      const ack = await retryTransient((timeoutMs) => requests.publish(subject, data, undefined, timeoutMs), retry);
      return ack.seq;
    },

    async load(generationId) {
      const { checkpointsDirect, requests, names } = await resources();
      const key = assertSubjectToken('generation id', generationId);
      const found = await retryTransient(
        (timeoutMs) =>
          checkpointsDirect ? directGet(requests, names, key, timeoutMs) : leaderGet(requests, names, key, timeoutMs),
        retry,
      );
      if (found === undefined) return undefined;
      const record = openCheckpointRecord(sealer, key, found.record);
      return { checkpoint: record.checkpoint, params: record.params, revision: found.revision };
    },
  };
}

type Found = { record: CheckpointRecord; revision: number } | undefined;

/**
 * A key's latest value through JetStream's direct get (what nats.js's kv.get sends when the
 * bucket allows it), on the bus's own request path: `$JS.API.DIRECT.GET.<stream>.<key subject>`
 * answers with the stored message, its sequence (the revision) in `Nats-Sequence`, a delete or
 * purge marked by `KV-Operation`, or a 404 status when there is none.
 */
async function directGet(
  requests: JetStreamRequests,
  names: NatsNames,
  key: string,
  timeoutMs: number | undefined,
): Promise<Found> {
  const subject = `$JS.API.DIRECT.GET.${names.checkpointStream}.${names.checkpointKeySubject(key)}`;
  const reply = await requests.request(subject, EMPTY, timeoutMs);
  const headers = reply.headers;
  const status = headers?.code ?? 0;
  if (status === 404) return undefined;
  if (status !== 0 || headers === undefined) {
    const error = new Error(`direct get of ${key}: ${status} ${headers?.description ?? 'no headers'}`);
    // A server-side hiccup (5xx, 408) is retried like any transient error; anything else is not.
    if (status >= 500 || status === 408) error.name = 'JetStreamStatusError';
    throw error;
  }
  if (isDeleted(headers.get('KV-Operation'))) return undefined;
  return { record: decodeJson<CheckpointRecord>(reply.data), revision: Number(headers.get('Nats-Sequence')) };
}

/** The same, asked of the bucket's stream leader (a replica of a replicated bucket may lag). */
async function leaderGet(
  requests: JetStreamRequests,
  names: NatsNames,
  key: string,
  timeoutMs: number | undefined,
): Promise<Found> {
  const found = await lastMessageOn(requests, names.checkpointStream, names.checkpointKeySubject(key), timeoutMs);
  if (found === undefined || isDeleted(found.headers.get('KV-Operation'))) return undefined;
  return { record: decodeJson<CheckpointRecord>(found.data), revision: found.seq };
}

function isDeleted(operation: string | undefined): boolean {
  return operation === 'DEL' || operation === 'PURGE';
}

const EMPTY = new Uint8Array(0);
