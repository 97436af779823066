import type { PendingIndex, PendingRecord } from '@interlude/core/internal';
import type { KV } from '@nats-io/kv';
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
 * what older ones asked; whether each still waits is the claim log's to say (`runtime.pending()`).
 * A record whose questions do not open (sealed with a key this bus does not hold, or written plain
 * by a client without one) is reported to `onError` and listed by its key without them: the
 * pending view reads questions only from the verified checkpoint.
 */
export function createNatsPendingIndex(
  resources: () => Promise<{ pending: KV; requests: JetStreamRequests; names: NatsNames }>,
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
    async list(filter = {}) {
      const { pending } = await resources();
      const keys = await retryTransient(async () => {
        const found: string[] = [];
        for await (const key of await pending.keys()) found.push(key);
        return found;
      }, retry);
      const records = await Promise.all(
        keys.map(async (key) => {
          const entry = await retryTransient(() => pending.get(key), retry);
          if (entry === null || entry.operation !== 'PUT') return undefined;
          const record = decodeJson<PendingRecord>(entry.value);
          // Agent, action and audience are stored readable: another's record is skipped unopened.
          if (filter.agent !== undefined && record.agent !== filter.agent) return undefined;
          if (filter.action !== undefined && record.action !== filter.action) return undefined;
          if (filter.audience !== undefined && record.audience !== filter.audience) return undefined;
          try {
            return openPendingRecord(sealer, key, record);
          } catch (error) {
            // Only its id is believed (`runtime.pending()` reads the questions from the signed
            // checkpoint), so a record someone without the key overwrote still names its generation.
            onError(error, `pending record of ${key} not readable`);
            return { ...record, generation_id: key, input_requests: [] };
          }
        }),
      );
      return records.filter((record): record is PendingRecord => record !== undefined);
    },
  };
}
