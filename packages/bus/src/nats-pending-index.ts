import { pendingRecordSchema } from '@interlude/core/contract';
import type { PendingIndex, PendingRecord } from '@interlude/core/internal';
import type { JetStreamManager } from '@nats-io/jetstream';
import type { KV, KvEntry } from '@nats-io/kv';
import type { PayloadSealer } from './codec/payload-sealer.js';
import { openPendingRecord, sealPendingRecord } from './codec/sealed-records.js';
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
 * asked, and only when it names the generation of its key and opens (with a codec): any other is
 * reported to `onError` and its generation named without it.
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
      return Promise.all(
        keys.map(async (key) => {
          const entry = await retryTransient(() => pending.get(key), retry);
          return { generationId: key, askedAt: askedAtOf(key, entry) };
        }),
      );
    },
  };

  /** The record's `asked_at`, when the record under `key` is intact; undefined (and said) when not. */
  function askedAtOf(key: string, entry: KvEntry | null): string | undefined {
    if (entry === null) return undefined;
    if (entry.operation !== 'PUT') {
      onError(new Error(`the pending record of ${key} was deleted by a client other than Interlude`), 'pending index');
      return undefined;
    }
    try {
      const record = decodeJson<PendingRecord>(entry.value);
      if (record?.generation_id !== key) {
        throw new Error(`the pending record under ${key} names another generation: it was written there`);
      }
      const parsed = pendingRecordSchema.safeParse(openPendingRecord(sealer, key, record));
      if (!parsed.success) throw new Error(`the pending record under ${key} is not a version 1 pending record`);
      return parsed.data.asked_at;
    } catch (error) {
      onError(error, `pending record of ${key} not readable`);
      return undefined;
    }
  }
}
