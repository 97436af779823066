import { pendingRecordSchema } from '@interlude/core/contract';
import type { PendingIndex, PendingRecord } from '@interlude/core/internal';
import type { JetStreamManager } from '@nats-io/jetstream';
import type { KV, KvEntry } from '@nats-io/kv';
import type { PayloadSealer } from './codec/payload-sealer.js';
import { sealPendingRecord } from './codec/sealed-records.js';
import type { JetStreamRequests } from './jetstream-requests.js';
import { decodeJson, encodeJson } from './json-codec.js';
import { type RetryOptions, retryTransient } from './retry.js';
import { purgeSubject } from './stream-message-get.js';
import { assertSubjectToken, type NatsNames } from './subjects.js';

/**
 * The pending index in the KV bucket `interlude_pending`, one key per paused generation, its
 * questions sealed when the bus has a codec. It outlives every process, so a restarted one lists
 * what older ones asked; whether each still waits, and everything listed about it, is read from
 * the generation's own records (`runtime.pending()`). The generations it names are the subjects
 * the bucket's stream holds (`$KV.interlude_pending.<generation>`), read in one stream-info
 * request: a record a client without the key deleted leaves its marker on the subject, and one it
 * overwrote keeps its key, so neither hides a generation; `remove` purges the subject, which a
 * role may do only through the JetStream API. A record is believed for nothing but when it was
 * asked, and only when it names the generation of its key and is a version 1 pending record: any
 * other is reported to `onError` (once per stored revision, however often the index is listed:
 * a metrics gauge lists it at every collection) and its generation named without it. Its sealed
 * questions are never opened here: `asked_at` is plain, and the questions `pending()` lists come
 * from the verified checkpoint, so a record sealed with a payload key this process does not hold
 * (another deployment's on a shared bucket, a key since retired) still gives its order.
 */
export function createNatsPendingIndex(
  resources: () => Promise<{
    pending: KV;
    requests: JetStreamRequests;
    manager: JetStreamManager;
    names: NatsNames;
  }>,
  retry: RetryOptions,
  sealer: PayloadSealer,
  onError: (error: unknown, context: string) => void,
): PendingIndex {
  // The revision last reported of each key whose record is not to be believed, so each bad write is said once.
  const reported = new Map<string, number>();
  return {
    async put(record) {
      const { pending } = await resources();
      const key = assertSubjectToken('generation id', record.generation_id);
      const data = encodeJson(sealPendingRecord(sealer, record));
      await retryTransient(() => pending.put(key, data), retry);
    },
    // A purge of the key's subject, not a delete: a delete leaves a marker per generation for
    // good, and the bucket would grow with every generation that ever paused.
    async remove(generationId) {
      const { requests, names } = await resources();
      const key = assertSubjectToken('generation id', generationId);
      await retryTransient(() => purgeSubject(requests, names.pendingStream, names.pendingKeySubject(key)), retry);
    },
    async entries() {
      const { pending, manager, names } = await resources();
      const prefix = names.pendingKeySubject('');
      const info = await retryTransient(
        () => manager.streams.info(names.pendingStream, { subjects_filter: `${prefix}*` }),
        retry,
      );
      const keys = Object.keys(info.state.subjects ?? {}).map((subject) => subject.slice(prefix.length));
      const listed = new Set(keys);
      for (const key of reported.keys()) if (!listed.has(key)) reported.delete(key);
      return Promise.all(
        keys.map(async (key) => {
          const entry = await retryTransient(() => pending.get(key), retry);
          return { generationId: key, askedAt: askedAtOf(key, entry) };
        }),
      );
    },
  };

  /** The record's `asked_at`, when the record under `key` is intact; undefined (and said, once per revision) when not. */
  function askedAtOf(key: string, entry: KvEntry | null): string | undefined {
    const read = entry === null ? { askedAt: undefined } : readAskedAt(key, entry);
    if (!('error' in read)) {
      reported.delete(key);
      return read.askedAt;
    }
    if (entry !== null && reported.get(key) !== entry.revision) {
      reported.set(key, entry.revision);
      onError(read.error, read.context);
    }
    return undefined;
  }
}

/**
 * The `asked_at` of a stored pending record, or why it is not believed. The questions may be
 * sealed (the schema takes either form) and are not opened: only the plain fields are read.
 */
function readAskedAt(key: string, entry: KvEntry): { askedAt: string } | { error: unknown; context: string } {
  if (entry.operation !== 'PUT') {
    const error = new Error(`the pending record of ${key} was deleted by a client other than Interlude`);
    return { error, context: 'pending index' };
  }
  const context = `pending record of ${key} not readable`;
  try {
    const record = decodeJson<PendingRecord>(entry.value);
    if (record?.generation_id !== key) {
      return {
        error: new Error(`the pending record under ${key} names another generation: it was written there`),
        context,
      };
    }
    const parsed = pendingRecordSchema.safeParse(record);
    if (!parsed.success) {
      return { error: new Error(`the pending record under ${key} is not a version 1 pending record`), context };
    }
    return { askedAt: parsed.data.asked_at };
  } catch (error) {
    return { error, context };
  }
}
