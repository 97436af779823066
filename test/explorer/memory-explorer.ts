import { newGenerationId } from '@interlude/core/internal';
import { vi } from 'vitest';
import { countByRow, untolerated, type Violation } from './invariants.js';
import { createMemoryWorld } from './memory-world.js';
import { describeSchedule, generateSchedule, type ScheduleShape } from './schedule.js';
import { runSchedule } from './schedule-runner.js';

/** The memory explorer's schedules. Regression seeds replay under this shape: change it, re-pick them. */
export const MEMORY_SHAPE: ScheduleShape = {
  generations: 4,
  steps: 10,
  weights: {
    answer: 5,
    'answer-later': 2,
    'answer-elsewhere': 1,
    cancel: 1,
    advance: 2,
    'forge-pending': 1,
    'forge-phantom': 0.5,
    'forge-claim': 1,
    peek: 2,
    settle: 1,
  },
  deadlines: [500, 2_000, 10_000],
};

export interface ExplorationReport {
  schedules: number;
  /** Violations a known-failure row tolerates, by row. */
  tolerated: Record<string, number>;
  /** The first seed that showed each row. */
  firstSeedByRow: Record<string, number>;
  /** Seeds with a violation no row tolerates, with those violations. */
  failing: { seed: number; violations: Violation[] }[];
}

/**
 * Runs one memory-bus schedule per seed on vitest's fake clock (Date and timers), each in a fresh
 * world, and sorts what they showed into tolerated rows and failures. `verbose` prints each
 * failing schedule's steps (a replay of one seed).
 */
export async function exploreMemory(seeds: readonly number[], options: { verbose?: boolean } = {}) {
  vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  const clock = {
    advance: (ms: number) => vi.advanceTimersByTimeAsync(ms).then(() => undefined),
    flush: () => vi.advanceTimersByTimeAsync(0).then(() => undefined),
  };
  const report: ExplorationReport = { schedules: seeds.length, tolerated: {}, firstSeedByRow: {}, failing: [] };
  const tolerated: Violation[] = [];
  try {
    for (const seed of seeds) {
      const schedule = generateSchedule(seed, MEMORY_SHAPE);
      const world = createMemoryWorld(clock);
      const outcome = await runSchedule(schedule, world, newGenerationId);
      await world.close();
      // Timers a closed world left armed would otherwise run in every later schedule's clock.
      vi.clearAllTimers();
      for (const violation of outcome.violations) report.firstSeedByRow[violation.row] ??= seed;
      const bad = untolerated(outcome.violations);
      tolerated.push(...outcome.violations.filter((violation) => !bad.includes(violation)));
      if (bad.length === 0) continue;
      report.failing.push({ seed, violations: bad });
      if (options.verbose === true) console.log(`seed ${seed}:\n${describeSchedule(schedule)}`);
    }
  } finally {
    vi.useRealTimers();
  }
  report.tolerated = countByRow(tolerated);
  return report;
}

/** The lines a run prints: the rows tolerated, and each failing seed with how to replay it. */
export function printReport(label: string, report: ExplorationReport, replayVariable: string): void {
  console.log(
    `explorer (${label}): ${report.schedules} schedules; tolerated by row ${JSON.stringify(report.tolerated)}; ` +
      `first seed by row ${JSON.stringify(report.firstSeedByRow)}`,
  );
  for (const { seed, violations } of report.failing.slice(0, 5)) {
    console.log(`seed ${seed} failed (replay: ${replayVariable}=${seed}):\n${JSON.stringify(violations, null, 2)}`);
  }
}
