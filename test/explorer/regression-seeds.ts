import type { KnownRow } from './known-failures.js';

/**
 * Seeds of memory schedules (`MEMORY_SHAPE`) that broke an invariant while the explorer was built,
 * each with the row it showed. They replay in every run: strict once their row is fixed.
 */
export const MEMORY_REGRESSION_SEEDS: { seed: number; shows: KnownRow }[] = [
  { seed: 27_000_000, shows: 'pending-lists-answer-in-flight' },
  { seed: 27_000_001, shows: 'two-runtimes-one-process' },
  { seed: 27_000_002, shows: 'keyless-pending-record' },
  { seed: 27_000_008, shows: 'unsigned-claims' },
];
