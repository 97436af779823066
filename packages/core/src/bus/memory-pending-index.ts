import type { PendingIndex, PendingRecord } from './bus.js';

/** The pending index in memory: one record per generation, copies in and out. */
export function createMemoryPendingIndex(): PendingIndex {
  const records = new Map<string, PendingRecord>();
  return {
    async put(record) {
      records.set(record.generation_id, structuredClone(record));
    },
    async remove(generationId) {
      records.delete(generationId);
    },
    async entries() {
      return [...records].map(([generationId, record]) => ({ generationId, askedAt: record.asked_at }));
    },
  };
}
