import type { CycleVariant } from './cycle-variants.js';
import { round, type Summary, summarize } from './statistics.js';

export interface CycleVariantResult {
  name: string;
  milliseconds: Summary;
  /** Median and p95 of this variant over its group's bare loop, measured in the same interleaved run. */
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
  /** Built per pause and per resume: the median milliseconds of each build, after the warm-up. */
  buildMs?: { pause: number; resume: number };
}

/** One row of a group as the benchmark lists it; the first entry of a group is its baseline. */
export interface CycleEntry {
  variant: CycleVariant;
  floor?: true;
  peer?: true;
  note?: string;
}

/** The variants a group's goals compare: Interlude on each bus and the peer it must beat there. */
export interface GoalVariants {
  memory: CycleVariant;
  aiSdk: CycleVariant;
  nats: CycleVariant;
  langGraph: CycleVariant;
}

/** A group's rows and the peers' medians over Interlude's in it (above 1: Interlude is faster). */
export interface CycleGroupResult {
  variants: CycleVariantResult[];
  aiSdkOverMemory: number;
  langGraphOverNats: number;
}

/** The median cycle time of `variant` among sampled entries (0 samples read as a median of 0). */
export function medianCycleOf(entries: readonly (CycleEntry & { samples: number[] })[], variant: CycleVariant): number {
  return summarize(entries.find((entry) => entry.variant === variant)?.samples ?? []).median;
}

/**
 * Reads one group of an interleaved run (the plain calls, or the streamed ones) against its own
 * bare loop, the first entry, and judges the goals of issue 21 (goal 5 for the streamed group):
 * the memory bus ≤ 1.3× and ahead of the AI SDK; NATS + OTel ≤ 2.5× with LangGraph.js at least
 * 3× slower.
 */
export function summarizeGroup(entries: (CycleEntry & { samples: number[] })[], goals: GoalVariants): CycleGroupResult {
  const baseline = summarize(entries[0]?.samples ?? []);
  const medianOf = (variant: CycleVariant) => medianCycleOf(entries, variant);
  const ratioOf = (variant: CycleVariant) => medianOf(variant) / baseline.median;
  const judged = new Map<CycleVariant, { goal: string; met: boolean }>([
    [
      goals.memory,
      {
        goal: '≤ 1.3×, < AI SDK',
        met: ratioOf(goals.memory) <= 1.3 && ratioOf(goals.memory) < ratioOf(goals.aiSdk),
      },
    ],
    [
      goals.nats,
      {
        goal: '≤ 2.5×, LangGraph ≥ 3× it',
        met: ratioOf(goals.nats) <= 2.5 && medianOf(goals.langGraph) / medianOf(goals.nats) >= 3,
      },
    ],
  ]);
  return {
    aiSdkOverMemory: round(medianOf(goals.aiSdk) / medianOf(goals.memory)),
    langGraphOverNats: round(medianOf(goals.langGraph) / medianOf(goals.nats)),
    variants: entries.map(({ variant, floor, note, peer, samples }) => {
      const milliseconds = summarize(samples);
      return {
        name: variant.name,
        milliseconds: {
          count: milliseconds.count,
          median: round(milliseconds.median, 3),
          p95: round(milliseconds.p95, 3),
          p99: round(milliseconds.p99, 3),
          mean: round(milliseconds.mean, 3),
        },
        medianRatio: round(milliseconds.median / baseline.median),
        p95Ratio: round(milliseconds.p95 / baseline.p95),
        ...judged.get(variant),
        ...(floor && { floor }),
        ...(peer && { peer }),
        ...(note !== undefined && { note }),
        ...(variant.pausedBytes !== undefined && { pausedBytes: variant.pausedBytes }),
        ...(variant.builds !== undefined && { buildMs: buildMedians(variant.builds.slice(-2 * samples.length)) }),
      };
    }),
  };
}

/** The medians of builds that alternate pause, resume, pause, resume… */
function buildMedians(builds: readonly number[]): { pause: number; resume: number } {
  const half = (parity: number) => summarize(builds.filter((_build, index) => index % 2 === parity)).median;
  return { pause: round(half(0), 3), resume: round(half(1), 3) };
}
