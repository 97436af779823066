import { memoryBus, natsBus, type PayloadCodec } from '@interlude/bus';
import { type AgentBase, createRuntime, type Runtime } from '@interlude/core';
import { openTelemetry } from '@interlude/telemetry';
import { createInMemoryTracing, type InMemoryTracing } from '@interlude/telemetry/testing';
import { createBareSdkLoop } from './bare-sdk-loop.js';
import { defineChatRefundAgent } from './chat-refund-agent.js';
import { expectBareCycle, expectOneMore } from './expect-bare-cycle.js';
import { FINAL_TEXT } from './refund-chat-responder.js';
import { REFUND_PROMPT } from './refund-work.js';
import { expectScenario } from './scenario-error.js';

/** One way of running the refund cycle; `cycle` throws `ScenarioError` when its result is wrong. */
export interface CycleVariant {
  name: string;
  cycle(ticketId: number): Promise<void>;
  close(): Promise<void>;
  /** Bytes of what the last cycle kept while it waited for the person (its checkpoint, its saved state). */
  pausedBytes?: number;
}

/** The hand-written loop on the bare `openai` SDK: the baseline every ratio divides by. */
export function bareSdkVariant(baseURL: string): CycleVariant {
  const loop = createBareSdkLoop(baseURL);
  const name = 'bare openai SDK loop';
  const variant: CycleVariant = {
    name,
    async cycle(ticketId) {
      const before = { ...loop.work.runs };
      const cycle = await loop.cycle(ticketId);
      variant.pausedBytes = cycle.pausedBytes;
      expectBareCycle(name, loop.work, before, cycle);
    },
    async close() {},
  };
  return variant;
}

/**
 * Interlude's cycle: `generateNow()` pauses, the checkpoint goes through `JSON.stringify`, a fresh
 * generation object resumes it with the approval, and the final answer must be right with each
 * tool run exactly once.
 */
function interludeVariant(name: string, runtime: Runtime, baseURL: string, afterCycle?: () => void): CycleVariant {
  const { agent, work } = defineChatRefundAgent(runtime, baseURL);
  const variant: CycleVariant = {
    name,
    async cycle(ticketId) {
      const before = { ...work.runs };
      const paused = await generation(agent, ticketId).generateNow();
      const request = paused.inputRequests[0];
      expectScenario(
        paused.awaitingInput && paused.inputRequests.length === 1,
        `${name}: the cycle did not pause once`,
      );
      expectScenario(request?.prompt === REFUND_PROMPT, `${name}: asked ${JSON.stringify(request?.prompt)}`);
      expectScenario(work.runs.issue_refund === before.issue_refund, `${name}: the refund ran before its approval`);
      const saved = JSON.stringify(paused.checkpoint);
      variant.pausedBytes = Buffer.byteLength(saved);
      const done = await generation(agent, ticketId).resumeNow({
        checkpoint: JSON.parse(saved),
        answers: { [request.toolCallId as string]: true },
      });
      expectScenario(done.status === 'completed', `${name}: the resume ended ${done.status}`);
      expectScenario(done.text === FINAL_TEXT, `${name}: the final answer was ${JSON.stringify(done.text)}`);
      expectOneMore(work, before, 'lookup_order', `in one ${name} cycle`);
      expectOneMore(work, before, 'issue_refund', `in one ${name} cycle`);
      afterCycle?.();
    },
    async close() {
      await runtime.close();
    },
  };
  return variant;
}

function generation(agent: AgentBase, ticketId: number) {
  return agent.generation('handle', { ticketId });
}

/** Interlude on the embedded memory bus, without telemetry: the framework's own cost. */
export function interludeMemoryVariant(baseURL: string): CycleVariant {
  return interludeVariant('Interlude, memory bus', createRuntime({ bus: memoryBus() }), baseURL);
}

/**
 * Interlude on NATS with OpenTelemetry spans kept in memory: the distributed setup. Each cycle
 * must end both runs' root spans (paused and resumed) and leave no span open. With `codec`, every
 * payload the bus stores is sealed and every one it reads opened (`natsBus({ codec })`).
 */
export function interludeNatsVariant(baseURL: string, servers: string, codec?: PayloadCodec): CycleVariant {
  const tracing: InMemoryTracing = createInMemoryTracing();
  const runtime = createRuntime({
    bus: natsBus({ servers, name: codec === undefined ? 'bench-cycle' : 'bench-cycle-codec', codec: codec ?? false }),
    telemetry: openTelemetry({ tracerProvider: tracing.tracerProvider }),
  });
  const name = codec === undefined ? 'Interlude, NATS + OTel' : 'Interlude, NATS + OTel + codec';
  const variant = interludeVariant(name, runtime, baseURL, () => {
    const roots = tracing.finishedSpans().filter((span) => span.name.startsWith('invoke_agent'));
    expectScenario(roots.length === 2, `NATS + OTel: a cycle ended ${roots.length} invoke_agent spans, expected 2`);
    expectScenario(tracing.openSpanNames().length === 0, `NATS + OTel: spans left open: ${tracing.openSpanNames()}`);
    tracing.reset();
  });
  const close = variant.close;
  variant.close = async () => {
    await close();
    await tracing.shutdown();
  };
  return variant;
}
