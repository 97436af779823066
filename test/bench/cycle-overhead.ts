import { randomBytes } from 'node:crypto';
import { aesGcmCodec } from '@interlude/bus';
import { aiSdkVariant } from './ai-sdk-variant.js';
import type { BenchConfig } from './bench-config.js';
import type { BenchNatsServer } from './bench-nats-server.js';
import { bareSdkVariant, type CycleVariant, interludeMemoryVariant, interludeNatsVariant } from './cycle-variants.js';
import { sampleInterleaved } from './interleaved-cycles.js';
import { langGraphVariant } from './langgraph-variant.js';
import { natsFloorVariant } from './nats-floor-variant.js';
import { round, type Summary, summarize } from './statistics.js';
import { xstateFloorVariant } from './xstate-floor-variant.js';

export interface CycleVariantResult {
  name: string;
  milliseconds: Summary;
  /** Median and p95 of this variant over the bare loop's, measured in the same interleaved run. */
  medianRatio: number;
  p95Ratio: number;
  /** The goal on the median ratio, when there is one, as the report states it. */
  goal?: string;
  met?: boolean;
  /** Another framework running the same scenario on the same wire server: read Interlude against it. */
  peer?: true;
  /** Bytes of what one cycle kept while it waited for the person (checkpoint, saved state, database rows). */
  pausedBytes?: number;
  /**
   * A floor: the bare loop plus only what the design itself costs (an XState machine; the NATS
   * writes of a durable pause), with none of Interlude's code. Read a goal against the floor below it.
   */
  floor?: true;
  /** What the goal column says of a variant with no goal and no floor of its own. */
  note?: string;
}

export interface CycleOverheadResult {
  cycles: number;
  warmupCycles: number;
  /** Messages the NATS variant sends nats-server per cycle (publishes pipelined, acks awaited at side effects). */
  natsMessagesPerCycle: number;
  /** The NATS variant with the payload codec over the same without, medians of the same run: what sealing costs a cycle. */
  codecOverNats: number;
  /** The peers' medians over Interlude's, same run: above 1 means Interlude is faster. */
  aiSdkOverMemory: number;
  langGraphOverNats: number;
  variants: CycleVariantResult[];
}

/**
 * Benchmark 1: the refund cycle (pause, `JSON.stringify`, resume, answer) against a wire server
 * in another process, the variants interleaved cycle by cycle (bare, floors, memory, the AI SDK,
 * NATS, LangGraph.js with PostgresSaver, NATS with the payload codec, bare, …) after a warm-up, so
 * load on the machine hits them all alike. Every cycle checks its result.
 */
export async function runCycleOverhead(
  config: BenchConfig,
  baseURL: string,
  nats: BenchNatsServer,
): Promise<CycleOverheadResult> {
  const natsUrl = nats.url;
  const natsVariant = interludeNatsVariant(baseURL, natsUrl);
  const memoryVariant = interludeMemoryVariant(baseURL);
  const aiSdk = aiSdkVariant(baseURL);
  const langGraph = await langGraphVariant(baseURL);
  const entries: { variant: CycleVariant; floor?: true; note?: string; peer?: true }[] = [
    { variant: bareSdkVariant(baseURL) },
    { variant: xstateFloorVariant(baseURL), floor: true },
    { variant: memoryVariant },
    { variant: aiSdk, peer: true },
    { variant: await natsFloorVariant(baseURL, natsUrl), floor: true },
    { variant: natsVariant },
    { variant: langGraph, peer: true },
    {
      variant: interludeNatsVariant(baseURL, natsUrl, {
        codec: aesGcmCodec({ keys: [randomBytes(32).toString('base64')] }),
      }),
      note: 'the row above, sealed',
    },
  ];
  let natsMessages = 0;
  const samples = await sampleInterleaved(
    entries.map((entry) => entry.variant),
    { warmup: config.warmupCycles, cycles: config.cycles },
    async (variant, index, timed) => {
      // Interlude's NATS variant's messages per cycle, counted around its own cycles after warm-up.
      if (variant !== natsVariant || index < config.warmupCycles) return timed();
      const countersAt = await nats.counters();
      await timed();
      natsMessages += (await nats.counters()).inMessages - countersAt.inMessages;
    },
  );
  const variants = entries.map((entry, position) => ({ ...entry, samples: samples[position] ?? [] }));
  const baseline = summarize(variants[0]?.samples ?? []);
  const medianOf = (variant: CycleVariant) =>
    summarize(variants.find((entry) => entry.variant === variant)?.samples ?? []).median;
  const codecVariant = entries.at(-1)?.variant as CycleVariant;
  const ratioOf = (variant: CycleVariant) => medianOf(variant) / baseline.median;
  // Goals of issue 21: ahead of the peer in the same run, and close to the bare loop.
  const goals = new Map<CycleVariant, { goal: string; met: boolean }>([
    [
      memoryVariant,
      { goal: '≤ 1.3×, < AI SDK', met: ratioOf(memoryVariant) <= 1.3 && ratioOf(memoryVariant) < ratioOf(aiSdk) },
    ],
    [
      natsVariant,
      {
        goal: '≤ 2.5×, LangGraph ≥ 3× it',
        met: ratioOf(natsVariant) <= 2.5 && medianOf(langGraph) / medianOf(natsVariant) >= 3,
      },
    ],
  ]);
  return {
    cycles: config.cycles,
    warmupCycles: config.warmupCycles,
    natsMessagesPerCycle: round(natsMessages / config.cycles, 1),
    codecOverNats: round(medianOf(codecVariant) / medianOf(natsVariant)),
    aiSdkOverMemory: round(medianOf(aiSdk) / medianOf(memoryVariant)),
    langGraphOverNats: round(medianOf(langGraph) / medianOf(natsVariant)),
    variants: variants.map(({ variant, floor, note, peer, samples }) => {
      const milliseconds = summarize(samples);
      const medianRatio = round(milliseconds.median / baseline.median);
      return {
        name: variant.name,
        milliseconds: {
          count: milliseconds.count,
          median: round(milliseconds.median, 3),
          p95: round(milliseconds.p95, 3),
          p99: round(milliseconds.p99, 3),
          mean: round(milliseconds.mean, 3),
        },
        medianRatio,
        p95Ratio: round(milliseconds.p95 / baseline.p95),
        ...goals.get(variant),
        ...(floor && { floor }),
        ...(peer && { peer }),
        ...(note !== undefined && { note }),
        ...(variant.pausedBytes !== undefined && { pausedBytes: variant.pausedBytes }),
      };
    }),
  };
}
