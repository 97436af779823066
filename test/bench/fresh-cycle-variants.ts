import { memoryBus, natsBus } from '@interlude/bus';
import { createRuntime, type Runtime } from '@interlude/core';
import { openTelemetry } from '@interlude/telemetry';
import { createBenchTracing } from './bench-tracing.js';
import { defineChatRefundAgent } from './chat-refund-agent.js';
import { type CycleVariant, expectTwoRootSpans, interludeCycle, timedBuild } from './cycle-variants.js';
import { createRefundWork } from './refund-work.js';

/**
 * Interlude on the memory bus, built per pause and per resume as two processes would: each half
 * gets its own `createRuntime()` (its own bus, keys from `INTERLUDE_CHECKPOINT_KEY`), provider,
 * tools and `defineAgent`; the checkpoint crosses between them as JSON.
 */
export function interludeMemoryFreshVariant(baseURL: string): CycleVariant {
  const work = createRefundWork();
  const open: Runtime[] = [];
  const closeOpen = async () => {
    for (const runtime of open.splice(0)) await runtime.close();
  };
  const agentFor = (variant: CycleVariant) =>
    timedBuild(variant, () => {
      const runtime = createRuntime({ bus: memoryBus() });
      open.push(runtime);
      return defineChatRefundAgent(runtime, baseURL, work).agent;
    });
  return interludeCycle(
    'Interlude, memory bus, fresh',
    { work, agentFor, close: closeOpen },
    { afterCycle: () => void closeOpen() },
  );
}

/**
 * Interlude on NATS + OpenTelemetry built per pause and per resume: a runtime, telemetry,
 * provider, tools and agent each time, on the process's one connection (a process connects once
 * and builds agents per job; the connection is not what this group measures).
 */
export function interludeNatsFreshVariant(baseURL: string, servers: string): CycleVariant {
  const work = createRefundWork();
  const tracing = createBenchTracing();
  const bus = natsBus({ servers, name: 'bench-cycle-fresh', codec: false });
  const agentFor = (variant: CycleVariant) =>
    timedBuild(variant, () => {
      const runtime = createRuntime({ bus, telemetry: openTelemetry({ tracerProvider: tracing.tracerProvider }) });
      return defineChatRefundAgent(runtime, baseURL, work).agent;
    });
  const close = async () => {
    await bus.close();
    await tracing.shutdown();
  };
  return interludeCycle(
    'Interlude, NATS + OTel, fresh',
    { work, agentFor, close },
    { afterCycle: () => expectTwoRootSpans(tracing) },
  );
}
