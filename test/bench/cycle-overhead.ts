import { randomBytes } from 'node:crypto';
import { aesGcmCodec } from '@interlude/bus';
import { aiSdkVariant } from './ai-sdk-variant.js';
import type { BenchConfig } from './bench-config.js';
import type { BenchNatsServer } from './bench-nats-server.js';
import {
  type CycleEntry,
  type CycleGroupResult,
  type GoalVariants,
  medianCycleOf,
  summarizeGroup,
} from './cycle-group.js';
import { bareSdkVariant, interludeMemoryVariant, interludeNatsVariant } from './cycle-variants.js';
import { sampleInterleaved } from './interleaved-cycles.js';
import { langGraphVariant } from './langgraph-variant.js';
import { natsFloorVariant } from './nats-floor-variant.js';
import { round } from './statistics.js';
import { xstateFloorVariant } from './xstate-floor-variant.js';

/** The plain group's rows and peer ratios at the top (as before the streamed group), the streamed group under `streamed`. */
export interface CycleOverheadResult extends CycleGroupResult {
  cycles: number;
  warmupCycles: number;
  /** Messages the NATS variant sends nats-server per cycle (publishes pipelined, acks awaited at side effects). */
  natsMessagesPerCycle: number;
  /** The NATS variant with the payload codec over the same without, medians of the same run: what sealing costs a cycle. */
  codecOverNats: number;
  /**
   * The same cycle with every model call streamed and read to the end (goal 5), against the bare
   * loop streamed: its own group, interleaved with the plain one in the same run.
   */
  streamed: CycleGroupResult;
}

/**
 * Benchmark 1: the refund cycle (pause, `JSON.stringify`, resume, answer) against a wire server
 * in another process, the variants interleaved cycle by cycle (bare, floors, memory, the AI SDK,
 * NATS, LangGraph.js with PostgresSaver, NATS with the payload codec, then the streamed group:
 * bare, memory, the AI SDK, NATS, LangGraph.js; bare, …) after a warm-up, so load on the machine
 * hits them all alike. Every cycle checks its result. Each group is read against its own bare loop.
 */
export async function runCycleOverhead(
  config: BenchConfig,
  baseURL: string,
  nats: BenchNatsServer,
): Promise<CycleOverheadResult> {
  const natsUrl = nats.url;
  const plainGoals: GoalVariants = {
    memory: interludeMemoryVariant(baseURL),
    aiSdk: aiSdkVariant(baseURL),
    nats: interludeNatsVariant(baseURL, natsUrl),
    langGraph: await langGraphVariant(baseURL),
  };
  const codecVariant = interludeNatsVariant(baseURL, natsUrl, {
    codec: aesGcmCodec({ keys: [randomBytes(32).toString('base64')] }),
  });
  const plain: CycleEntry[] = [
    { variant: bareSdkVariant(baseURL) },
    { variant: xstateFloorVariant(baseURL), floor: true },
    { variant: plainGoals.memory },
    { variant: plainGoals.aiSdk, peer: true },
    { variant: await natsFloorVariant(baseURL, natsUrl), floor: true },
    { variant: plainGoals.nats },
    { variant: plainGoals.langGraph, peer: true },
    { variant: codecVariant, note: 'the row above, sealed' },
  ];
  const streamedGoals: GoalVariants = {
    memory: interludeMemoryVariant(baseURL, { streamed: true }),
    aiSdk: aiSdkVariant(baseURL, { streamed: true }),
    nats: interludeNatsVariant(baseURL, natsUrl, { streamed: true }),
    langGraph: await langGraphVariant(baseURL, { streamed: true }),
  };
  const streamed: CycleEntry[] = [
    { variant: bareSdkVariant(baseURL, { stream: true }) },
    { variant: streamedGoals.memory },
    { variant: streamedGoals.aiSdk, peer: true },
    { variant: streamedGoals.nats },
    { variant: streamedGoals.langGraph, peer: true },
  ];
  let natsMessages = 0;
  const entries = [...plain, ...streamed];
  const samples = await sampleInterleaved(
    entries.map((entry) => entry.variant),
    { warmup: config.warmupCycles, cycles: config.cycles },
    async (variant, index, timed) => {
      // Interlude's NATS variant's messages per cycle, counted around its own cycles after warm-up.
      if (variant !== plainGoals.nats || index < config.warmupCycles) return timed();
      const countersAt = await nats.counters();
      await timed();
      natsMessages += (await nats.counters()).inMessages - countersAt.inMessages;
    },
  );
  const withSamples = entries.map((entry, position) => ({ ...entry, samples: samples[position] ?? [] }));
  return {
    cycles: config.cycles,
    warmupCycles: config.warmupCycles,
    natsMessagesPerCycle: round(natsMessages / config.cycles, 1),
    codecOverNats: round(medianCycleOf(withSamples, codecVariant) / medianCycleOf(withSamples, plainGoals.nats)),
    ...summarizeGroup(withSamples.slice(0, plain.length), plainGoals),
    streamed: summarizeGroup(withSamples.slice(plain.length), streamedGoals),
  };
}
