import type { PendingIndex, PendingRecord } from '@interlude/core';
import type { KV } from '@nats-io/kv';
import type { PayloadSealer } from './codec/payload-sealer.js';
import { openPendingRecord, sealPendingRecord } from './codec/sealed-records.js';
import { decodeJson, encodeJson } from './json-codec.js';
import { type RetryOptions, retryTransient } from './retry.js';
import { assertSubjectToken } from './subjects.js';

/**
 * The pending index in the KV bucket `interlude_pending`, one key per paused generation, its
 * questions sealed when the bus has a codec. It outlives every process, so a restarted one lists
 * what older ones asked; whether each still waits is the claim log's to say (`runtime.pending()`).
 */
export function createNatsPendingIndex(
  resources: () => Promise<{ pending: KV }>,
  retry: RetryOptions,
  sealer: PayloadSealer,
): PendingIndex {
  return {
    async put(record) {
      const { pending } = await resources();
      const key = assertSubjectToken('generation id', record.generation_id);
      const data = encodeJson(sealPendingRecord(sealer, record));
      await retryTransient(() => pending.put(key, data), retry);
    },
    async remove(generationId) {
      const { pending } = await resources();
      const key = assertSubjectToken('generation id', generationId);
      await retryTransient(() => pending.delete(key), retry);
    },
    async list() {
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
          return openPendingRecord(sealer, key, decodeJson<PendingRecord>(entry.value));
        }),
      );
      return records.filter((record): record is PendingRecord => record !== undefined);
    },
  };
}
