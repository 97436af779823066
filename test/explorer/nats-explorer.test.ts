import { newGenerationId } from '@interlude/core/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { soakSize } from '../support/soak.js';
import { countByRow, untolerated, type Violation } from './invariants.js';
import { NATS_SHAPE } from './nats-shape.js';
import { startNatsWorld } from './nats-world.js';
import { NATS_REGRESSION_SEEDS } from './regression-seeds.js';
import { describeSchedule, generateSchedule } from './schedule.js';
import { runSchedule } from './schedule-runner.js';

/** `EXPLORER_NATS_SCHEDULES` overrides; `INTERLUDE_SOAK=long` runs 1,000. */
const SCHEDULES = Number(process.env['EXPLORER_NATS_SCHEDULES'] ?? soakSize({ short: 30, long: 1_000 }));
const BASE_SEED = Number(process.env['EXPLORER_NATS_BASE_SEED'] ?? 27_500_000);
/** One seed, or several separated by commas, replayed alone (at once, `PARALLEL` at a time). */
const ONLY_SEEDS = process.env['EXPLORER_NATS_SEED']?.split(',').map(Number);
/** Schedules run at once against the one world (their faults hit each other's generations too). */
const PARALLEL = Number(process.env['EXPLORER_NATS_PARALLEL'] ?? 5);
const ACK_WAIT_MS = 1_000;
/**
 * A schedule that has not ended after this long is a failure of its own, reported with its seed
 * (a run that waits for something that never comes would otherwise hang the suite until the
 * test's bound, printing nothing). On a loaded machine a schedule takes up to about a minute.
 */
const SCHEDULE_BOUND_MS = 5 * 60_000;

let world: Awaited<ReturnType<typeof startNatsWorld>>;

beforeAll(async () => {
  world = await startNatsWorld({ workers: 3, ackWaitMs: ACK_WAIT_MS, bodyHoldMs: 300, longestDeadlineMs: 2_500 });
}, 120_000);

afterAll(async () => {
  await world?.close();
}, 60_000);

describe('fault-schedule explorer, NATS with worker processes', () => {
  // The default range, then the regression seeds it does not hold.
  const range = Array.from({ length: SCHEDULES }, (_, index) => BASE_SEED + index);
  const regression = NATS_REGRESSION_SEEDS.map(({ seed }) => seed).filter((seed) => !range.includes(seed));
  const seeds = ONLY_SEEDS ?? [...range, ...regression];

  it(`keeps the five invariants over ${seeds.length} schedules, or breaks them only as a known-failure row says`, async () => {
    const tolerated: Violation[] = [];
    const firstSeedByRow: Record<string, number> = {};
    const failing: { seed: number; violations: Violation[]; described: string }[] = [];
    const refusals: Record<string, number> = {};
    const explore = async (seed: number) => {
      const schedule = generateSchedule(seed, NATS_SHAPE);
      const outcome = await withinBound(runSchedule(schedule, world, newGenerationId), SCHEDULE_BOUND_MS);
      if (outcome === undefined) {
        const described = describeSchedule(schedule);
        failing.push({ seed, violations: [], described: `did not end within ${SCHEDULE_BOUND_MS} ms\n${described}` });
        return;
      }
      for (const violation of outcome.violations) firstSeedByRow[violation.row] ??= seed;
      for (const [code, count] of Object.entries(outcome.refusals)) refusals[code] = (refusals[code] ?? 0) + count;
      const bad = untolerated(outcome.violations);
      tolerated.push(...outcome.violations.filter((violation) => !bad.includes(violation)));
      if (bad.length === 0) return;
      // What happened to each failing generation, read now: on NATS a replay retries the schedule rather than repeating it.
      const generations = [...new Set(bad.map((violation) => violation.generation))];
      const described = await Promise.all(generations.map(async (id) => `${id}:\n${await world.describe?.(id)}`));
      failing.push({ seed, violations: bad, described: `${describeSchedule(schedule)}\n${described.join('\n')}` });
    };
    // A pool, not batches: a schedule starts as soon as one ends, so PARALLEL always run and no
    // batch waits on its slowest schedule (each schedule ends on deadlines and ack waits of its own).
    const queued = [...seeds];
    const lane = async () => {
      for (let seed = queued.shift(); seed !== undefined; seed = queued.shift()) await explore(seed);
    };
    await Promise.all(Array.from({ length: PARALLEL }, lane));
    console.log(
      `explorer (NATS): ${seeds.length} schedules; tolerated by row ${JSON.stringify(countByRow(tolerated))}; ` +
        `first seed by row ${JSON.stringify(firstSeedByRow)}; faults ${JSON.stringify(world.faults)}; ` +
        `refusals met ${JSON.stringify(refusals)}`,
    );
    for (const { seed, violations, described } of failing.slice(0, 5)) {
      console.log(
        `seed ${seed} failed (replay: EXPLORER_NATS_SEED=${seed}):\n${JSON.stringify(violations, null, 2)}\n${described}`,
      );
    }
    expect(failing.map(({ seed }) => seed)).toEqual([]);
  }, 3_600_000);
});

/** What `running` resolves with, or `undefined` once `ms` passed first. */
async function withinBound<T>(running: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([running, bound]);
  } finally {
    clearTimeout(timer);
  }
}
