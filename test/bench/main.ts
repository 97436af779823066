/**
 * `pnpm bench`: runs the benchmarks, prints a table and writes `test/bench/results.json`.
 * Every figure is a ratio to a baseline measured in the same run. Exits 1 only when a scenario
 * gave a wrong result (a tool ran twice, a result missing), never because something was slow.
 */
import { writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { readBenchConfig } from './bench-config.js';
import { startBenchNatsServer } from './bench-nats-server.js';
import { type BenchResults, formatReport } from './bench-report.js';
import { runCheckpointSize } from './checkpoint-size.js';
import { runClusterReplicas } from './cluster-replicas.js';
import { runCycleOverhead } from './cycle-overhead.js';
import { runFreshCycles } from './fresh-cycles.js';
import { runNatsThroughput } from './nats-throughput.js';
import { runPausedMemory } from './paused-memory.js';
import { runSetupCost } from './setup-cost.js';
import { startWireServerProcess } from './wire-server-process.js';

// One deployment's key for this process and the workers it starts (a runtime on NATS needs one).
process.env['INTERLUDE_CHECKPOINT_KEY'] ??= 'interlude-bench-checkpoint-key';
const config = readBenchConfig();
const results: BenchResults = {
  startedAt: new Date().toISOString(),
  machine: { node: process.version, cpus: availableParallelism(), platform: process.platform },
  // `pnpm bench:built` runs Interlude's compiled `dist`, as installed; `pnpm bench` its sources under tsx.
  packages: process.execArgv.some((flag) => flag.includes('use-built-packages')) ? 'built' : 'source',
  config: { ...config, only: [...config.only] },
  failures: [],
};

async function attempt(benchmark: string, run: () => Promise<void>): Promise<void> {
  if (!config.only.has(benchmark)) return;
  console.error(`[bench] ${benchmark}…`);
  try {
    await run();
  } catch (error) {
    results.failures.push({ benchmark, message: error instanceof Error ? error.message : String(error) });
  }
}

const wire = await startWireServerProcess();
try {
  await attempt('cycle', async () => {
    const nats = await startBenchNatsServer();
    try {
      results.cycleOverhead = await runCycleOverhead(config, wire.baseURL, nats);
    } finally {
      await nats.stop();
    }
  });
  await attempt('fresh', async () => {
    const nats = await startBenchNatsServer();
    try {
      results.freshCycles = await runFreshCycles(config, wire.baseURL, nats);
    } finally {
      await nats.stop();
    }
  });
  await attempt('checkpoint', async () => {
    results.checkpointSize = await runCheckpointSize(config, wire.baseURL);
  });
  await attempt('setup', async () => {
    results.setupCost = runSetupCost(config, wire.baseURL);
  });
} finally {
  await wire.stop();
}
await attempt('throughput', async () => {
  results.throughput = await runNatsThroughput(config);
});
await attempt('memory', async () => {
  results.pausedMemory = await runPausedMemory(config);
});
await attempt('cluster', async () => {
  results.clusterReplicas = await runClusterReplicas(config);
});

console.log(formatReport(results));
const resultsFile = fileURLToPath(new URL('./results.json', import.meta.url));
await writeFile(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
console.log(`\nwrote ${resultsFile}`);
process.exit(results.failures.length > 0 ? 1 : 0);
