import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './test/support/longest-first-sequencer.js';

/** Every test of the repository; `pnpm test` runs them all, in the two tiers below. */
const ALL_TESTS = ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'test/**/*.test.ts'];
const NOT_TESTS = ['**/node_modules/**', 'test/bench/**'];

/**
 * The tests that start something: the run's nats-server and PostgreSQL (`inject('natsUrl')`,
 * `inject('postgresUrl')`), private servers and clusters, worker and demo processes, Chromium,
 * `pnpm pack`. Everything else is the fast tier, which a setup file keeps from starting any
 * process (test/support/fast-tier-guard.ts), so a test missing here fails there and says so.
 */
const SERVER_TESTS = [
  'packages/bus/src/jetstream-requests.test.ts',
  'packages/bus/src/job-consumer-loop.test.ts',
  'packages/bus/src/nats-bus.test.ts',
  'packages/bus/src/nats-job-queue.test.ts',
  'packages/bus/src/server-2.9/sweep-acknowledged-jobs.test.ts',
  'packages/bus/src/worker-stop.test.ts',
  'test/bus/**/*.test.ts',
  'test/contract/contract-on-the-wire.test.ts',
  'test/context/postgres-*.test.ts',
  'test/demo/**/*.test.ts',
  'test/docs/pnpm-commands.test.ts',
  'test/docs/testing-page-nats.test.ts',
  'test/examples/**/*.test.ts',
  // Starts nothing, but type-checks every block of the docs against the packages: about 10 s.
  'test/docs/typescript-blocks.test.ts',
  'test/gateway/**/*.test.ts',
  // Starts nothing, but runs hundreds of schedules: kept out of the inner loop.
  'test/explorer/**/*.test.ts',
  'test/mcp/mcp-stdio.test.ts',
  'test/package/**/*.test.ts',
  // All of test/reliability but hostile-input, tampering and first-pause-answer, which start no process.
  'test/reliability/!(hostile-input|tampering|first-pause-answer).test.ts',
  'test/secrets/**/*.test.ts',
  'test/support/**/*.test.ts',
  'test/telemetry/cross-process-trace.test.ts',
  'test/telemetry/worker-bin-otel-variables.test.ts',
  'test/telemetry/worker-bin-trace.test.ts',
  'test/trust/**/*.test.ts',
  'test/worker-process/**/*.test.ts',
];

/**
 * The soak and fault tests: long runs of generations through kills, stalls, cuts, restarts and
 * elections, timed against ack waits and leader elections. They start servers too, and run after
 * the rest, two files at a time: most of their time is waiting (about 1.4 s of CPU per 1 s of wall
 * with two at once), and each file's bounds are on conditions, not on how fast a run is. (hostile-
 * input and tampering start no process: they are fast tests.)
 */
// (cluster-ops.test.ts kills cluster nodes too, but runs no load through them, and every wait of
// it is on a condition with a bound of 20 s or more: it runs with the servers tier.)
const SOAK_TESTS = [
  'test/bus/retention.test.ts',
  'test/explorer/nats-explorer.test.ts',
  'test/reliability/{cluster,connection-cuts,deadline-takeover,double-resumes,job-server-restarts,lapsed-holder,server-restarts,settle-old-pause,worker-crashes,worker-stalls}.test.ts',
];

export default defineConfig({
  test: {
    // The suite is one deployment: every process it starts (workers, resumers, the demo) signs and
    // checks with this key, as a deployment's processes share INTERLUDE_CHECKPOINT_KEY.
    env: { INTERLUDE_CHECKPOINT_KEY: 'interlude-test-suite-checkpoint-key' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // After vitest's own output: each tier's wall time and the slowest files.
    reporters: ['default', './test/support/slowest-files-reporter.ts'],
    // The slowest files of a tier start first, whether or not vitest has timings of its own yet.
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'fast',
          include: ALL_TESTS,
          exclude: [...NOT_TESTS, ...SERVER_TESTS, ...SOAK_TESTS],
          setupFiles: ['test/support/fast-tier-guard.ts'],
          // CPU-bound: one worker per core, each running many files on the modules it already
          // loaded (importing the SDKs, zod and xstate again for every file cost more than the tests).
          maxWorkers: 2,
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'servers',
          include: SERVER_TESTS,
          exclude: [...NOT_TESTS, ...SOAK_TESTS],
          globalSetup: ['test/support/global-setup.ts'],
          // A bound for hung tests, not a speed check: child processes start slowly on a loaded machine.
          testTimeout: 60_000,
          // Mostly waiting on servers, processes and the network (cluster elections, deadlines,
          // stop bounds): three files at once. (Tried on 2026-12-02, three left child processes too
          // slow to start within their bounds; since the worker processes start from bundles, at a
          // sixth of the CPU, they start in time.)
          maxWorkers: 3,
          // Each worker runs many files on the modules it already loaded, as the fast tier does:
          // importing core, the bus and the SDKs again for every file cost 76 s of the tier's time.
          // A file that sets something process-wide (a global tracer provider, env) undoes it after.
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'soak',
          include: SOAK_TESTS,
          exclude: NOT_TESTS,
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 60_000,
          maxWorkers: 2,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
