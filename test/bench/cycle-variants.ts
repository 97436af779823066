import { memoryBus, natsBus, type PayloadCodec } from '@interlude/bus';
import { createRuntime, type ResumeInput, type Runtime } from '@interlude/core';
import type { AgentBase } from '@interlude/core/internal';
import { openTelemetry } from '@interlude/telemetry';
import { type BareOptions, createBareSdkLoop, createBareSteps } from './bare-sdk-loop.js';
import { type BenchTracing, createBenchTracing } from './bench-tracing.js';
import { defineChatRefundAgent } from './chat-refund-agent.js';
import { expectBareCycle, expectOneMore } from './expect-bare-cycle.js';
import { readGenerationStream } from './read-generation-stream.js';
import { FINAL_TEXT } from './refund-chat-responder.js';
import { REFUND_PROMPT, type RefundWork } from './refund-work.js';
import { expectScenario } from './scenario-error.js';
import { now } from './statistics.js';

/** One way of running the refund cycle; `cycle` throws `ScenarioError` when its result is wrong. */
export interface CycleVariant {
  name: string;
  cycle(ticketId: number): Promise<void>;
  close(): Promise<void>;
  /** Bytes of what the last cycle kept while it waited for the person (its checkpoint, its saved state). */
  pausedBytes?: number;
  /** Built per pause and per resume: milliseconds of each build, the pause's and the resume's in turn. */
  builds?: number[];
}

/** Runs `build` and appends its milliseconds to `variant.builds`. */
export function timedBuild<T>(variant: CycleVariant, build: () => T): T {
  const started = now();
  const built = build();
  variant.builds ??= [];
  variant.builds.push(now() - started);
  return built;
}

/**
 * The hand-written loop on the bare `openai` SDK: the baseline every ratio divides by. Streamed,
 * the baseline of the streamed group: the same loop reading chunks and assembling its calls.
 */
export function bareSdkVariant(baseURL: string, options: BareOptions & { fresh?: boolean } = {}): CycleVariant {
  const { fresh = false, ...loopOptions } = options;
  const loop = createBareSdkLoop(baseURL, loopOptions);
  const name = `bare openai SDK loop${options.stream === true ? ', streamed' : ''}${fresh ? ', fresh' : ''}`;
  // Fresh: a client built to pause and another to resume, as two processes would.
  const freshCycle = async (ticketId: number) => {
    const build = () => createBareSteps(baseURL, { ...loopOptions, work: loop.work });
    const pausing = timedBuild(variant, build);
    const { saved, prompt } = pausing.pauseTools(await pausing.firstCall(ticketId));
    const resuming = timedBuild(variant, build);
    const text = await resuming.finalCall(resuming.resumeTools(saved, true));
    return { prompt, pausedBytes: Buffer.byteLength(saved), text };
  };
  const variant: CycleVariant = {
    name,
    async cycle(ticketId) {
      const before = { ...loop.work.runs };
      const cycle = fresh ? await freshCycle(ticketId) : await loop.cycle(ticketId);
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
  options: InterludeVariantOptions = {},
): CycleVariant {
  const { agent, work } = defineChatRefundAgent(runtime, baseURL);
  return interludeCycle(name, { work, agentFor: () => agent, close: () => runtime.close() }, options);
}

/** Where an Interlude cycle gets its agent: the same one every time, or one built per pause and per resume. */
export interface InterludeAgents {
  work: RefundWork;
  agentFor(variant: CycleVariant): AgentBase;
  close(): Promise<void>;
}

export function interludeCycle(
  name: string,
  { work, agentFor, close }: InterludeAgents,
  { streamed = false, afterCycle }: InterludeVariantOptions = {},
): CycleVariant {
  const pause = async (ticketId: number) => {
    const agent = agentFor(variant);
    if (!streamed) return generation(agent, ticketId).generateNow();
    const read = await readGenerationStream(name, generation(agent, ticketId).stream());
    expectScenario(
      read.toolCalls === 2 && read.inputRequests === 1,
      `${name}: the paused stream yielded ${read.toolCalls} tool calls and ${read.inputRequests} questions`,
    );
    return read.response;
  };
  const resume = async (ticketId: number, input: ResumeInput) => {
    const agent = agentFor(variant);
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
    close,
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
 * Interlude on NATS with OpenTelemetry spans exported in batches, as in production
 * (`createBenchTracing`): the distributed setup. Each cycle must end both runs' root spans
 * (paused and resumed) and leave no span open. With `codec`, every
 * payload the bus stores is sealed and every one it reads opened (`natsBus({ codec })`). With
 * `streamed`, the cycle reads `stream()` and `resumeStream()` to the end.
 */
export function interludeNatsVariant(
  baseURL: string,
  servers: string,
  { codec, streamed = false }: { codec?: PayloadCodec; streamed?: boolean } = {},
): CycleVariant {
  const tracing = createBenchTracing();
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
  const afterCycle = () => expectTwoRootSpans(tracing);
  const variant = interludeVariant(name, runtime, baseURL, { streamed, afterCycle });
  const close = variant.close;
  variant.close = async () => {
    await close();
    await tracing.shutdown();
  };
  return variant;
}

/** A NATS cycle must end both runs' root spans (paused and resumed) and leave no span open. */
export function expectTwoRootSpans(tracing: BenchTracing): void {
  const roots = tracing.rootsEnded();
  expectScenario(roots === 2, `NATS + OTel: a cycle ended ${roots} invoke_agent spans, expected 2`);
  expectScenario(tracing.openSpanNames().length === 0, `NATS + OTel: spans left open: ${tracing.openSpanNames()}`);
  tracing.reset();
}
