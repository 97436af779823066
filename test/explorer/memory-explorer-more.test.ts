import { describe, expect, it } from 'vitest';
import { exploreMemory, printReport } from './memory-explorer.js';
import { memorySeeds } from './memory-seeds.js';

describe('fault-schedule explorer, memory bus with a virtual clock (second half of the seeds)', () => {
  const seeds = memorySeeds('second');

  it.skipIf(seeds.length === 0)(
    `keeps the five invariants over ${seeds.length} more schedules`,
    async () => {
      const report = await exploreMemory(seeds);
      printReport('memory, second half', report, 'EXPLORER_SEED');
      expect(report.failing.map(({ seed }) => seed)).toEqual([]);
    },
    900_000,
  );
});
