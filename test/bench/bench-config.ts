/**
 * Sizes of every benchmark, from the environment so a quick run (`BENCH_CYCLES=30 pnpm bench`)
 * and the full one use the same code. Defaults are the sizes the goals are stated for.
 */
export interface BenchConfig {
  /** Which benchmarks run: any of `cycle`, `fresh`, `checkpoint`, `throughput`, `memory`, `cluster`, `setup`. */
  only: ReadonlySet<string>;
  /** Measured refund cycles per variant of the cycle-overhead benchmark. */
  cycles: number;
  /** Unmeasured cycles per variant before that, so JIT and connections are warm. */
  warmupCycles: number;
  /** Conversation lengths the checkpoint-size benchmark pauses at. */
  checkpointTurns: number[];
  /** Generations per worker set (1 and 2 processes) in the throughput benchmark. */
  generations: number;
  /** Rounds the throughput benchmark interleaves its variants over. */
  throughputRounds: number;
  /**
   * Generations the driver keeps in flight, and jobs each worker runs at once. The publish-rate
   * probe keeps 256 publishes in flight, so the cycle is measured loaded too: at 16 jobs a worker
   * waited on round trips with CPU to spare (1.7 cores busy of 2) and sent smaller batches.
   */
  driverConcurrency: number;
  workerConcurrency: number;
  /** Messages per sample of JetStream's pipelined publish rate, and how many are in flight. */
  publishMessages: number;
  publishWindow: number;
  /** Generations paused through one worker in the memory benchmark, and how often it is sampled. */
  paused: number;
  memorySamples: number;
  /** Generations per round and replicas setting on the 3-node cluster, rounds, and generations at once. */
  clusterGenerations: number;
  clusterRounds: number;
  clusterConcurrency: number;
}

function integer(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${raw}`);
  return value;
}

function list(name: string, fallback: number[]): number[] {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  return raw.split(',').map((part) => {
    const value = Number(part.trim());
    if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must list positive integers, got ${raw}`);
    return value;
  });
}

export const BENCHMARKS = ['cycle', 'fresh', 'checkpoint', 'throughput', 'memory', 'cluster', 'setup'] as const;

/** Reads the `BENCH_*` variables; see `test/bench/README.md` for each one. */
export function readBenchConfig(): BenchConfig {
  const only = process.env['BENCH_ONLY']?.split(',').map((name) => name.trim()) ?? [...BENCHMARKS];
  for (const name of only) {
    if (!(BENCHMARKS as readonly string[]).includes(name)) {
      throw new Error(`BENCH_ONLY names an unknown benchmark ${name}; known: ${BENCHMARKS.join(', ')}`);
    }
  }
  return {
    only: new Set(only),
    cycles: integer('BENCH_CYCLES', 300),
    warmupCycles: integer('BENCH_WARMUP_CYCLES', 30),
    checkpointTurns: list('BENCH_CHECKPOINT_TURNS', [10, 100, 1_000]),
    generations: integer('BENCH_GENERATIONS', 5_000),
    throughputRounds: integer('BENCH_THROUGHPUT_ROUNDS', 5),
    driverConcurrency: integer('BENCH_DRIVER_CONCURRENCY', 64),
    workerConcurrency: integer('BENCH_WORKER_CONCURRENCY', 32),
    publishMessages: integer('BENCH_PUBLISH_MESSAGES', 10_000),
    publishWindow: integer('BENCH_PUBLISH_WINDOW', 256),
    paused: integer('BENCH_PAUSED', 10_000),
    memorySamples: integer('BENCH_MEMORY_SAMPLES', 10),
    clusterGenerations: integer('BENCH_CLUSTER_GENERATIONS', 600),
    clusterRounds: integer('BENCH_CLUSTER_ROUNDS', 2),
    clusterConcurrency: integer('BENCH_CLUSTER_CONCURRENCY', 16),
  };
}
