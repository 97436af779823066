import { natsBus } from '@interlude/bus';
import { createRuntime } from '@interlude/core';
import type { BenchConfig } from './bench-config.js';
import { startBenchNatsServer } from './bench-nats-server.js';
import { defineNatsRefundAgent } from './nats-refund-agent.js';
import { expectScenario } from './scenario-error.js';
import { round } from './statistics.js';
import { startWorkerSet } from './worker-processes.js';

export interface MemoryPoint {
  paused: number;
  rssMiB: number;
  heapUsedMiB: number;
}

export interface PausedMemoryResult {
  samples: MemoryPoint[];
  /** Last sample over the first one taken after a batch (a warm worker): 1.00 is flat. */
  rssRatio: number;
  heapRatio: number;
  /** Heap the worker keeps per paused generation, between those two samples. */
  heapBytesPerPaused: number;
  /** Goal: heap after GC at the end ≤ 1.1× the warm sample. */
  goal: number;
  met: boolean;
}

const MiB = 1024 * 1024;

/**
 * Benchmark 4: one worker process pauses `paused` generations (`generateLater` jobs that stop at
 * the refund's confirmation) and reports its memory after a full GC every batch. A paused
 * generation lives in KV, so the worker should hold nothing for it. Checks every generation paused
 * once, its lookup ran once, nothing was refunded, and its checkpoint is in KV.
 */
export async function runPausedMemory(config: BenchConfig): Promise<PausedMemoryResult> {
  const server = await startBenchNatsServer();
  const batch = Math.ceil(config.paused / config.memorySamples);
  const workers = await startWorkerSet({
    natsUrl: server.url,
    queue: 'bench_memory',
    size: 1,
    concurrency: config.workerConcurrency,
    sampleEvery: batch,
  });
  const runtime = createRuntime({ bus: natsBus({ servers: server.url, name: 'bench-memory-driver' }) });
  const agent = defineNatsRefundAgent(runtime, (tool) => {
    throw new Error(`${tool} ran in the driver, which only queues jobs`);
  });
  try {
    const generationIds: string[] = [];
    await workers.waitForSamples(1, 30_000);
    for (let enqueued = 0, batchNumber = 1; enqueued < config.paused; batchNumber += 1) {
      const count = Math.min(batch, config.paused - enqueued);
      const jobs = Array.from({ length: count }, (_, index) =>
        agent.generation('handle', { ticketId: enqueued + index }).generateLater({ queue: 'bench_memory' }),
      );
      for (const job of await Promise.all(jobs)) generationIds.push(job.generationId);
      enqueued += count;
      await workers.waitForSamples(batchNumber + 1, 120_000);
    }
    const paused = workers.jobs.get('awaiting_input') ?? 0;
    expectScenario(paused === config.paused, `${paused} of ${config.paused} generations paused`);
    for (const generationId of generationIds) {
      const effects = workers.effects.get(generationId);
      expectScenario(
        effects?.lookup_order === 1,
        `lookup_order ran ${effects?.lookup_order ?? 0} times for ${generationId}`,
      );
      expectScenario(effects.issue_refund === 0, `issue_refund ran before its approval for ${generationId}`);
    }
    const step = Math.max(1, Math.floor(generationIds.length / 100));
    for (let index = 0; index < generationIds.length; index += step) {
      const stored = await runtime.bus.checkpoints.load(generationIds[index] as string);
      expectScenario(
        stored?.checkpoint.input_requests.length === 1,
        `no paused checkpoint in KV for ${generationIds[index]}`,
      );
    }
    const samples = workers.memory.map((sample) => ({
      paused: sample.jobs,
      rssMiB: round(sample.rss / MiB, 1),
      heapUsedMiB: round(sample.heapUsed / MiB, 2),
    }));
    const warm = workers.memory[1] ?? workers.memory[0]!;
    const last = workers.memory[workers.memory.length - 1]!;
    const heapRatio = round(last.heapUsed / warm.heapUsed);
    return {
      samples,
      rssRatio: round(last.rss / warm.rss),
      heapRatio,
      heapBytesPerPaused: round((last.heapUsed - warm.heapUsed) / Math.max(1, last.jobs - warm.jobs), 1),
      goal: 1.1,
      met: heapRatio <= 1.1,
    };
  } finally {
    await runtime.close();
    await workers.stop();
    await server.stop();
  }
}
