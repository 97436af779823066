import { aiSdkVariant } from './ai-sdk-variant.js';
import type { BenchConfig } from './bench-config.js';
import type { BenchNatsServer } from './bench-nats-server.js';
import { type CycleEntry, type CycleGroupResult, type GoalVariants, summarizeGroup } from './cycle-group.js';
import { bareSdkVariant } from './cycle-variants.js';
import { interludeMemoryFreshVariant, interludeNatsFreshVariant } from './fresh-cycle-variants.js';
import { sampleInterleaved } from './interleaved-cycles.js';
import { langGraphVariant } from './langgraph-variant.js';

/**
 * Benchmark 7: the refund cycle with every stack built afresh to pause and again to resume, as a
 * process that resumes someone else's pause does (a serverless function, a worker that loads
 * agents per job): the bare loop a new `openai` client, the AI SDK `createOpenAI` + `tool()`,
 * Interlude `createRuntime` + `openaiChat()` + its tools + `defineAgent`, LangGraph.js its tools,
 * `ChatOpenAI` and a compiled graph (on one `PostgresSaver`, as NATS is one connection). The same
 * goals as benchmark 1, read against the bare loop built the same way, interleaved in one run.
 */
export async function runFreshCycles(
  config: BenchConfig,
  baseURL: string,
  nats: BenchNatsServer,
): Promise<CycleGroupResult> {
  const goals: GoalVariants = {
    memory: interludeMemoryFreshVariant(baseURL),
    aiSdk: aiSdkVariant(baseURL, { fresh: true }),
    nats: interludeNatsFreshVariant(baseURL, nats.url),
    langGraph: await langGraphVariant(baseURL, { fresh: true }),
  };
  const entries: CycleEntry[] = [
    { variant: bareSdkVariant(baseURL, { fresh: true }) },
    { variant: goals.memory },
    { variant: goals.aiSdk, peer: true },
    { variant: goals.nats },
    { variant: goals.langGraph, peer: true },
  ];
  const samples = await sampleInterleaved(
    entries.map((entry) => entry.variant),
    { warmup: config.warmupCycles, cycles: config.cycles },
  );
  return summarizeGroup(
    entries.map((entry, position) => ({ ...entry, samples: samples[position] ?? [] })),
    goals,
  );
}
