import type { CheckpointSizeResult } from './checkpoint-size.js';
import type { ClusterReplicasResult } from './cluster-replicas.js';
import type { CycleGroupResult } from './cycle-group.js';
import type { CycleOverheadResult } from './cycle-overhead.js';
import type { ThroughputResult } from './nats-throughput.js';
import type { PausedMemoryResult } from './paused-memory.js';
import { formatTable, verdict } from './report-table.js';
import type { SetupCostResult } from './setup-cost.js';

/** Everything one `pnpm bench` run measured, as written to `test/bench/results.json`. */
export interface BenchResults {
  startedAt: string;
  machine: { node: string; cpus: number; platform: string };
  /** Which form of Interlude ran: `built` (`pnpm bench:built`, the compiled dist) or `source` (under tsx). */
  packages: 'built' | 'source';
  config: Record<string, unknown>;
  cycleOverhead?: CycleOverheadResult;
  /** Benchmark 7: the same cycle with every stack built afresh to pause and again to resume. */
  freshCycles?: CycleGroupResult;
  checkpointSize?: CheckpointSizeResult;
  throughput?: ThroughputResult;
  pausedMemory?: PausedMemoryResult;
  clusterReplicas?: ClusterReplicasResult;
  setupCost?: SetupCostResult;
  /** Wrong scenario results (or a benchmark that could not run): the command exits 1 when any. */
  failures: { benchmark: string; message: string }[];
}

function cycleTable(group: CycleGroupResult): string {
  const rows = group.variants.map((variant) => [
    variant.name,
    variant.milliseconds.median,
    variant.milliseconds.p95,
    `${variant.medianRatio.toFixed(2)}×`,
    `${variant.p95Ratio.toFixed(2)}×`,
    variant.pausedBytes ?? '',
    variant.floor
      ? 'floor (design cost only)'
      : variant.peer
        ? 'peer'
        : (variant.note ?? verdict(variant.met, variant.goal ?? '')),
  ]);
  return formatTable(['variant', 'median ms', 'p95 ms', 'median ×', 'p95 ×', 'paused B', 'goal (median)'], rows);
}

function peerLine(group: CycleGroupResult): string {
  return `the AI SDK's median over Interlude's on the memory bus: ${group.aiSdkOverMemory.toFixed(2)}×; LangGraph.js + PostgresSaver's over Interlude's on NATS + OTel: ${group.langGraphOverNats.toFixed(2)}× (above 1: Interlude is faster)`;
}

function cycleSection(result: CycleOverheadResult): string {
  return `1. Cycle overhead: ${result.cycles} refund cycles per variant, interleaved, after ${result.warmupCycles} warm-up
${cycleTable(result)}
${peerLine(result)}
Interlude's NATS variant sends nats-server ${result.natsMessagesPerCycle} messages per cycle (the NATS floor sends the 12 a durable pause and resume needs)
the payload codec (natsBus({ codec }), AES-256-GCM) costs the NATS cycle ${result.codecOverNats.toFixed(2)}× (median with it over median without, same run)

Streamed (goal 5), interleaved in the same run, every ratio to the bare loop streamed
${cycleTable(result.streamed)}
${peerLine(result.streamed)}`;
}

function freshSection(result: CycleGroupResult): string {
  const builds = result.variants
    .filter((variant) => variant.buildMs !== undefined)
    .map((variant) => `${variant.name} ${variant.buildMs?.pause} + ${variant.buildMs?.resume}`)
    .join('; ');
  return `7. Fresh instance per pause and per resume, interleaved, every ratio to the bare loop built the same way
${cycleTable(result)}
${peerLine(result)}
median build ms (pause + resume): ${builds}`;
}

function checkpointSection(result: CheckpointSizeResult): string {
  const { scenario } = result;
  const rows: (string | number)[][] = [
    [
      'refund scenario',
      scenario.checkpointBytes,
      scenario.messagesBytes,
      `${scenario.ratio.toFixed(2)}×`,
      `${scenario.aiSdkRatio.toFixed(2)}× the AI SDK's ${scenario.aiSdkStateBytes} B: ${verdict(scenario.met, '≤ 1.5×')}`,
    ],
    [
      'same, no key names',
      scenario.namelessBytes,
      scenario.messagesBytes,
      `${scenario.namelessRatio.toFixed(2)}×`,
      'values alone: the floor',
    ],
    ...result.growth.map((sample) => [
      `${sample.turns} turns`,
      sample.checkpointBytes,
      sample.messagesBytes,
      `${sample.ratio.toFixed(2)}×`,
      `+${sample.overheadBytes} B`,
    ]),
  ];
  const steps = result.bytesPerTurn.map((step) => `${step.from}→${step.to}: ${step.bytes} B/turn`).join(', ');
  return `2. Checkpoint size (bytes)\n${formatTable(['conversation', 'checkpoint', 'messages', 'ratio', 'note'], rows)}
growth ${steps}; largest/smallest ${result.linearity}× → ${verdict(result.linear, 'linear, ≤ 1.1×')}; stored once: ${result.storedOnce ? 'yes' : 'NO'}
the hand-written loop's own paused state: ${scenario.bareStateBytes} B (checkpoint ${scenario.bareRatio}× that)`;
}

function throughputSection(result: ThroughputResult): string {
  const rows = result.variants.map((variant) => [
    variant.name,
    variant.generations,
    variant.generationsPerSecond,
    variant.answerToDoneMs.p50,
    variant.answerToDoneMs.p99,
    `${variant.ratioToLimit.toFixed(2)}×`,
    verdict(variant.met, '≥ 0.5×'),
    `${variant.cpuMsPerGeneration.driver}/${variant.cpuMsPerGeneration.workers}/${variant.cpuMsPerGeneration.natsServer}`,
    variant.coresBusy,
  ]);
  const operations = result.operationsPerCycle;
  return `3. Throughput on NATS (pause → resumeLater → worker → done)
JetStream pipelined publish-with-ack: ${result.publishRate.median} msg/s (CPU ms/msg client ${result.publishRate.cpuMsPerMessage.client}, nats ${result.publishRate.cpuMsPerMessage.natsServer}); one cycle sends ${operations.clientMessages} client messages to the server (stores ${operations.storedMessages} net); limit ${result.limitPerSecond} cycles/s
${formatTable(['workers', 'generations', 'gen/s', 'p50 ms', 'p99 ms', '× limit', 'goal', 'CPU ms/gen driver/workers/nats', 'cores busy'], rows)}`;
}

function memorySection(result: PausedMemoryResult): string {
  const rows = result.samples.map((sample) => [sample.paused, sample.rssMiB, sample.heapUsedMiB]);
  return `4. Worker memory while generations are paused (after a full GC)
${formatTable(['paused', 'RSS MiB', 'heap MiB'], rows)}
heap ${result.heapRatio}× and RSS ${result.rssRatio}× the warm sample, ${result.heapBytesPerPaused} B of heap per paused generation → ${verdict(result.met, 'heap ≤ 1.1×')}`;
}

function clusterSection(result: ClusterReplicasResult): string {
  const rows = result.variants.map((variant) => [
    variant.replicas,
    variant.generations,
    variant.generationsPerSecond,
    variant.generationMs.p50,
    variant.generationMs.p99,
  ]);
  const kill = result.leaderKill;
  const elections = Object.entries(kill.elections)
    .map(([stream, ms]) => `${stream} ${ms} ms`)
    .join(', ');
  return `5. A ${result.nodes}-node cluster: replicas 1 and 3 (start, pause, answer, done; ${result.concurrency} at once)
${formatTable(['replicas', 'generations', 'gen/s', 'p50 ms', 'p99 ms'], rows)}
leader of INTERLUDE_CLAIMS (${kill.killed}) SIGKILLed at 3 replicas: the server's election ${kill.electionMs} ms (each stream it led: ${elections}), longest stall ${kill.stallMs} ms (Interlude's addition ${kill.addedMs} ms); ${kill.generations} completed, ${kill.unavailable} gave up with bus_unavailable`;
}

function setupSection(result: SetupCostResult): string {
  return `6. Building the refund agent afresh (createRuntime, provider, tools, defineAgent), ${result.builds} builds interleaved with the bare loop's setup
median ${result.interludeMicroseconds} µs against ${result.bareMicroseconds} µs: ${result.ratio.toFixed(2)}× → ${verdict(result.met, `≤ ${result.goal}×`)}
the AI SDK's build (createOpenAI, both tools with tool()): ${result.aiSdkMicroseconds} µs; Interlude's over it ${result.aiSdkRatio.toFixed(2)}× → ${verdict(result.aiSdkRatio <= 1, '≤ 1×')}`;
}

/** The human-readable table `pnpm bench` prints. */
export function formatReport(results: BenchResults): string {
  const sections: string[] = [
    `Interlude's packages: ${results.packages === 'built' ? 'built (dist)' : 'sources (tsx)'}`,
  ];
  if (results.cycleOverhead) sections.push(cycleSection(results.cycleOverhead));
  if (results.checkpointSize) sections.push(checkpointSection(results.checkpointSize));
  if (results.throughput) sections.push(throughputSection(results.throughput));
  if (results.pausedMemory) sections.push(memorySection(results.pausedMemory));
  if (results.clusterReplicas) sections.push(clusterSection(results.clusterReplicas));
  if (results.setupCost) sections.push(setupSection(results.setupCost));
  if (results.freshCycles) sections.push(freshSection(results.freshCycles));
  for (const failure of results.failures) sections.push(`WRONG RESULT in ${failure.benchmark}: ${failure.message}`);
  return sections.join('\n\n');
}
