import { memoryBus, natsBus, type PayloadCodec } from '@interlude/bus';
import { createRuntime, type ResumeInput, type Runtime } from '@interlude/core';
import type { AgentBase } from '@interlude/core/internal';
import { openTelemetry } from '@interlude/telemetry';
import { createInMemoryTracing, type InMemoryTracing } from '@interlude/telemetry/testing';
import { type BareOptions, createBareSdkLoop } from './bare-sdk-loop.js';
import { defineChatRefundAgent } from './chat-refund-agent.js';
import { expectBareCycle, expectOneMore } from './expect-bare-cycle.js';
import { readGenerationStream } from './read-generation-stream.js';
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

/**
 * The hand-written loop on the bare `openai` SDK: the baseline every ratio divides by. Streamed,
 * the baseline of the streamed group: the same loop reading chunks and assembling its calls.
 */
export function bareSdkVariant(baseURL: string, options: BareOptions = {}): CycleVariant {
  const loop = createBareSdkLoop(baseURL, options);
  const name = options.stream === true ? 'bare openai SDK loop, streamed' : 'bare openai SDK loop';
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

/** How an Interlude variant runs: `streamed` reads `stream()` and `resumeStream()` to the end instead. */
interface InterludeVariantOptions {
  streamed?: boolean;
  /** Checks after each cycle (the NATS variant's spans). */
  afterCycle?: () => void;
}

/**
 * Interlude's cycle: `generateNow()` pauses, the checkpoint goes through `JSON.stringify`, a fresh
 * generation object resumes it with the approval, and the final answer must be right with each
 * tool run exactly once. Streamed, the pause must have yielded both calls and the question, and
 * the text deltas must add up to each response's text.
 */
function interludeVariant(
  name: string,
  runtime: Runtime,
  baseURL: string,
  { streamed = false, afterCycle }: InterludeVariantOptions = {},
): CycleVariant {
  const { agent, work } = defineChatRefundAgent(runtime, baseURL);
  const pause = async (ticketId: number) => {
    if (!streamed) return generation(agent, ticketId).generateNow();
    const read = await readGenerationStream(name, generation(agent, ticketId).stream());
    expectScenario(
      read.toolCalls === 2 && read.inputRequests === 1,
      `${name}: the paused stream yielded ${read.toolCalls} tool calls and ${read.inputRequests} questions`,
    );
    return read.response;
  };
  const resume = async (ticketId: number, input: ResumeInput) => {
    if (!streamed) return generation(agent, ticketId).resumeNow(input);
    return (await readGenerationStream(name, generation(agent, ticketId).resumeStream(input))).response;
  };
  const variant: CycleVariant = {
    name,
    async cycle(ticketId) {
      const before = { ...work.runs };
      const paused = await pause(ticketId);
      const request = paused.inputRequests[0];
      expectScenario(
        paused.awaitingInput && paused.inputRequests.length === 1,
        `${name}: the cycle did not pause once`,
      );
      expectScenario(request?.prompt === REFUND_PROMPT, `${name}: asked ${JSON.stringify(request?.prompt)}`);
      expectScenario(work.runs.issue_refund === before.issue_refund, `${name}: the refund ran before its approval`);
      const saved = JSON.stringify(paused.checkpoint);
      variant.pausedBytes = Buffer.byteLength(saved);
      const done = await resume(ticketId, {
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
export function interludeMemoryVariant(
  baseURL: string,
  { streamed = false }: { streamed?: boolean } = {},
): CycleVariant {
  const name = streamed ? 'Interlude, memory bus, streamed' : 'Interlude, memory bus';
  return interludeVariant(name, createRuntime({ bus: memoryBus() }), baseURL, { streamed });
}

/**
 * Interlude on NATS with OpenTelemetry spans kept in memory: the distributed setup. Each cycle
 * must end both runs' root spans (paused and resumed) and leave no span open. With `codec`, every
 * payload the bus stores is sealed and every one it reads opened (`natsBus({ codec })`). With
 * `streamed`, the cycle reads `stream()` and `resumeStream()` to the end.
 */
export function interludeNatsVariant(
  baseURL: string,
  servers: string,
  { codec, streamed = false }: { codec?: PayloadCodec; streamed?: boolean } = {},
): CycleVariant {
  const tracing: InMemoryTracing = createInMemoryTracing();
  const connection = codec !== undefined ? 'bench-cycle-codec' : streamed ? 'bench-cycle-streamed' : 'bench-cycle';
  const runtime = createRuntime({
    bus: natsBus({ servers, name: connection, codec: codec ?? false }),
    telemetry: openTelemetry({ tracerProvider: tracing.tracerProvider }),
  });
  const name =
    codec !== undefined
      ? 'Interlude, NATS + OTel + codec'
      : streamed
        ? 'Interlude, NATS + OTel, streamed'
        : 'Interlude, NATS + OTel';
  const afterCycle = () => {
    const roots = tracing.finishedSpans().filter((span) => span.name.startsWith('invoke_agent'));
    expectScenario(roots.length === 2, `NATS + OTel: a cycle ended ${roots.length} invoke_agent spans, expected 2`);
    expectScenario(tracing.openSpanNames().length === 0, `NATS + OTel: spans left open: ${tracing.openSpanNames()}`);
    tracing.reset();
  };
  const variant = interludeVariant(name, runtime, baseURL, { streamed, afterCycle });
  const close = variant.close;
  variant.close = async () => {
    await close();
    await tracing.shutdown();
  };
  return variant;
}
