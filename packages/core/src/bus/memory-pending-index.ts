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
    async list(filter = {}) {
      return structuredClone(
        [...records.values()].filter(
          (record) =>
            (filter.agent === undefined || record.agent === filter.agent) &&
            (filter.action === undefined || record.action === filter.action) &&
            (filter.audience === undefined || record.audience === filter.audience),
        ),
      );
    },
  };
}
