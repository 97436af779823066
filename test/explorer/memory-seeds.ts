import { soakSize } from '../support/soak.js';

/** `EXPLORER_SEED`: replay this one seed (in the first file only). */
export const ONLY_SEED = process.env['EXPLORER_SEED'];
/** `EXPLORER_SCHEDULES`: memory schedules in all (2,000; 20,000 with `INTERLUDE_SOAK=long`), split between two files. */
const SCHEDULES = Number(process.env['EXPLORER_SCHEDULES'] ?? soakSize({ short: 2_000, long: 20_000 }));
/** `EXPLORER_BASE_SEED`: the first seed (default 27,000,000); pick another to explore fresh schedules. */
const BASE_SEED = Number(process.env['EXPLORER_BASE_SEED'] ?? 27_000_000);

/**
 * The seeds one of the two memory explorer files runs: vitest runs test files in parallel, so the
 * two halves share the suite's cores. A replay (`EXPLORER_SEED`) runs in the first file alone.
 */
export function memorySeeds(half: 'first' | 'second'): number[] {
  if (ONLY_SEED !== undefined) return half === 'first' ? [Number(ONLY_SEED)] : [];
  const firstCount = Math.ceil(SCHEDULES / 2);
  const from = half === 'first' ? 0 : firstCount;
  const count = half === 'first' ? firstCount : SCHEDULES - firstCount;
  return Array.from({ length: count }, (_, index) => BASE_SEED + from + index);
}
