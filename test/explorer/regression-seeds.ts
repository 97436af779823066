import type { KnownRow } from './known-failures.js';

/**
 * Seeds of memory schedules (`MEMORY_SHAPE`) that broke an invariant while the explorer was built,
 * each with the row it showed (found with the fix for that row reverted). They replay in every run.
 */
export const MEMORY_REGRESSION_SEEDS: { seed: number; shows: KnownRow }[] = [
  { seed: 27_000_015, shows: 'keyless-timer-preempts' },
  { seed: 27_000_032, shows: 'keyless-pending-hides' },
  { seed: 27_000_188, shows: 'unsigned-claims' },
  { seed: 27_001_001, shows: 'keyless-timer-preempts' },
];

/**
 * Seeds of NATS schedules (`NATS_SHAPE`) that broke an invariant while the explorer was built, with
 * the row each showed. They replay in every run, after the default range. On NATS a replay retries
 * the schedule rather than repeating it exactly (real processes and a real clock interleave it).
 */
export const NATS_REGRESSION_SEEDS: { seed: number; shows: KnownRow }[] = [
  { seed: 27_500_003, shows: 'keyless-pending-record' },
  { seed: 27_500_007, shows: 'keyless-pending-record' },
  { seed: 27_500_010, shows: 'keyless-timer-preempts' },
];
