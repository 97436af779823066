import { memoryBus } from '@interlude/bus';
import { createRuntime } from '@interlude/core';
import { buildAiSdkRefund } from './ai-sdk-variant.js';
import { createBareSteps } from './bare-sdk-loop.js';
import type { BenchConfig } from './bench-config.js';
import { defineChatRefundAgent } from './chat-refund-agent.js';
import { now, round, summarize } from './statistics.js';

export interface SetupCostResult {
  builds: number;
  /** Median microseconds to build the bare loop (its `openai` client and tool list) and Interlude's agent. */
  bareMicroseconds: number;
  interludeMicroseconds: number;
  /** The AI SDK's build of the same: `createOpenAI` and both tools with `tool()`. */
  aiSdkMicroseconds: number;
  ratio: number;
  /** Interlude's build over the AI SDK's (goal of issue 32: ≤ 1). */
  aiSdkRatio: number;
  goal: number;
  met: boolean;
}

/**
 * Benchmark 6: building the refund agent afresh (`createRuntime()` on a memory bus, its
 * `openaiChat()` provider, both tools with their zod schemas, `defineAgent`), as a server that
 * builds per request or per resume does, against the bare loop's own setup (a new `openai`
 * client; its tool list is a constant) and the AI SDK's (`createOpenAI`, `tool()` twice).
 * Interleaved build by build after a warm-up. Goal ≤ 1.5×: a tool converts its schema to JSON
 * Schema once per schema object, not once per build.
 */
export function runSetupCost(config: BenchConfig, baseURL: string): SetupCostResult {
  const bare: number[] = [];
  const interlude: number[] = [];
  const aiSdk: number[] = [];
  const builds = config.cycles * 10;
  for (let index = 0; index < builds + config.warmupCycles * 10; index += 1) {
    const bareStarted = now();
    const steps = createBareSteps(baseURL);
    const bareTime = now() - bareStarted;
    const interludeStarted = now();
    const runtime = createRuntime({ bus: memoryBus() });
    const { agent } = defineChatRefundAgent(runtime, baseURL);
    const interludeTime = now() - interludeStarted;
    void runtime.close();
    const aiSdkStarted = now();
    const built = buildAiSdkRefund(baseURL, steps.work);
    const aiSdkTime = now() - aiSdkStarted;
    if (steps.work.runs.lookup_order !== 0 || agent.name !== 'support' || built.model.modelId !== 'gpt-4.1-bench')
      throw new Error('a build went wrong');
    if (index < config.warmupCycles * 10) continue;
    bare.push(bareTime);
    interlude.push(interludeTime);
    aiSdk.push(aiSdkTime);
  }
  const bareMicroseconds = summarize(bare).median * 1000;
  const interludeMicroseconds = summarize(interlude).median * 1000;
  const aiSdkMicroseconds = summarize(aiSdk).median * 1000;
  const ratio = round(interludeMicroseconds / bareMicroseconds);
  return {
    builds,
    bareMicroseconds: round(bareMicroseconds, 1),
    interludeMicroseconds: round(interludeMicroseconds, 1),
    aiSdkMicroseconds: round(aiSdkMicroseconds, 1),
    ratio,
    aiSdkRatio: round(interludeMicroseconds / aiSdkMicroseconds),
    goal: 1.5,
    met: ratio <= 1.5,
  };
}
