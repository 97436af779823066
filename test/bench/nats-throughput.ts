import type { BenchConfig } from './bench-config.js';
import { type BenchNatsServer, type ServerCounters, startBenchNatsServer } from './bench-nats-server.js';
import { openPublishRateProbe } from './jetstream-publish-rate.js';
import { processCpuMs, totalCpuMs } from './process-cpu.js';
import { round, summarize } from './statistics.js';
import { startThroughputDriver, type ThroughputDriver } from './throughput-driver.js';
import { startWorkerSet, type WorkerSet } from './worker-processes.js';

export interface ThroughputVariantResult {
  name: string;
  workers: number;
  generations: number;
  generationsPerSecond: number;
  answerToDoneMs: { p50: number; p99: number };
  /** CPU ms each kind of process spent per generation, and cores kept busy on average. */
  cpuMsPerGeneration: { driver: number; workers: number; natsServer: number };
  coresBusy: number;
  /** Generations per second over (JetStream publish rate ÷ operations per cycle); goal ≥ 0.5. */
  ratioToLimit: number;
  goal: number;
  met: boolean;
}

export interface ThroughputResult {
  /** Pipelined publish-with-ack, acknowledged messages per second: median of one sample per round. */
  publishRate: { samples: number[]; median: number; cpuMsPerMessage: { client: number; natsServer: number } };
  /** What one cycle (pause, resumeLater, worker, done) costs the server, averaged over sequential cycles. */
  operationsPerCycle: { clientMessages: number; storedMessages: number; cycles: number };
  /** The JetStream-bound rate of cycles: publish rate ÷ client messages per cycle. */
  limitPerSecond: number;
  variants: ThroughputVariantResult[];
}

function emptyTotals() {
  return {
    generations: 0,
    elapsedMs: 0,
    latencies: [] as number[],
    cpuMs: { driver: 0, workers: 0, natsServer: 0 },
  };
}

function driverCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1_000;
}

/** Bytes of a typical stored event, so the publish probe writes what Interlude writes. */
const EVENT_PAYLOAD_BYTES = 600;

async function countCycle(server: BenchNatsServer, driver: ThroughputDriver, workers: WorkerSet, cycles: number) {
  const before: ServerCounters = await server.counters();
  await driver.runBatch(workers, cycles, 1);
  // The worker acknowledges its job just after publishing `completed`: let that ack land.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const after = await server.counters();
  return {
    clientMessages: round((after.inMessages - before.inMessages) / cycles, 1),
    storedMessages: round((after.storedMessages - before.storedMessages) / cycles, 1),
    cycles,
  };
}

/**
 * Benchmark 3: generations through NATS, pause → `resumeLater` → worker → done, with one and two
 * worker processes, against JetStream's own pipelined publish rate measured on the same server in
 * the same run (interleaved round by round: probe, one worker, two workers, probe, …).
 */
export async function runNatsThroughput(config: BenchConfig): Promise<ThroughputResult> {
  const server = await startBenchNatsServer();
  const started: { stop(): Promise<void> }[] = [];
  try {
    const driver = await startThroughputDriver(server.url);
    started.push({ stop: () => driver.close() });
    const common = { natsUrl: server.url, concurrency: config.workerConcurrency };
    const one = await startWorkerSet({ ...common, queue: 'bench_one', size: 1 });
    started.push(one);
    const two = await startWorkerSet({ ...common, queue: 'bench_two', size: 2 });
    started.push(two);
    const probe = await openPublishRateProbe(server.url, EVENT_PAYLOAD_BYTES);
    started.push({ stop: () => probe.close() });

    const warmup = Math.min(200, config.generations);
    await probe.sample(Math.min(2_000, config.publishMessages), config.publishWindow);
    for (const set of [one, two]) await driver.runBatch(set, warmup, config.driverConcurrency);
    const operationsPerCycle = await countCycle(server, driver, one, 50);

    const rounds = Math.min(config.throughputRounds, config.generations);
    const perRound = Math.floor(config.generations / rounds);
    const publishSamples: number[] = [];
    const probeCpu = { client: 0, natsServer: 0, messages: 0 };
    const timings = new Map([one, two].map((set) => [set, emptyTotals()]));
    const cpuNow = (set: WorkerSet) => ({
      driver: driverCpuMs(),
      workers: totalCpuMs(set.pids),
      natsServer: processCpuMs(server.pid),
    });
    for (let index = 0; index < rounds; index += 1) {
      const count = index === rounds - 1 ? config.generations - perRound * (rounds - 1) : perRound;
      const clientBefore = driverCpuMs();
      const serverBefore = processCpuMs(server.pid);
      publishSamples.push(await probe.sample(config.publishMessages, config.publishWindow));
      probeCpu.client += driverCpuMs() - clientBefore;
      probeCpu.natsServer += processCpuMs(server.pid) - serverBefore;
      probeCpu.messages += config.publishMessages;
      for (const set of [one, two]) {
        const cpuBefore = cpuNow(set);
        const batch = await driver.runBatch(set, count, config.driverConcurrency);
        const cpuAfter = cpuNow(set);
        const total = timings.get(set)!;
        for (const key of ['driver', 'workers', 'natsServer'] as const)
          total.cpuMs[key] += cpuAfter[key] - cpuBefore[key];
        total.generations += batch.generations;
        total.elapsedMs += batch.elapsedMs;
        total.latencies.push(...batch.answerToDoneMs);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    driver.verify([one, two]);

    const publishRate = summarize(publishSamples).median;
    const limitPerSecond = publishRate / operationsPerCycle.clientMessages;
    return {
      publishRate: {
        samples: publishSamples.map((sample) => Math.round(sample)),
        median: Math.round(publishRate),
        cpuMsPerMessage: {
          client: round(probeCpu.client / probeCpu.messages, 4),
          natsServer: round(probeCpu.natsServer / probeCpu.messages, 4),
        },
      },
      operationsPerCycle,
      limitPerSecond: round(limitPerSecond, 1),
      variants: [one, two].map((set) => {
        const total = timings.get(set)!;
        const perSecond = total.generations / (total.elapsedMs / 1_000);
        const latency = summarize(total.latencies);
        const ratioToLimit = round(perSecond / limitPerSecond);
        const perGeneration = (ms: number) => round(ms / total.generations, 3);
        const cpuTotal = total.cpuMs.driver + total.cpuMs.workers + total.cpuMs.natsServer;
        return {
          name: set.size === 1 ? '1 worker process' : `${set.size} worker processes`,
          workers: set.size,
          generations: total.generations,
          generationsPerSecond: round(perSecond, 1),
          answerToDoneMs: { p50: round(latency.median, 1), p99: round(latency.p99, 1) },
          cpuMsPerGeneration: {
            driver: perGeneration(total.cpuMs.driver),
            workers: perGeneration(total.cpuMs.workers),
            natsServer: perGeneration(total.cpuMs.natsServer),
          },
          coresBusy: round(cpuTotal / total.elapsedMs),
          ratioToLimit,
          goal: 0.5,
          met: ratioToLimit >= 0.5,
        };
      }),
    };
  } finally {
    for (const piece of started.reverse()) await piece.stop().catch(() => undefined);
    await server.stop();
  }
}
