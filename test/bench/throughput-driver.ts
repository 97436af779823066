import { natsBus } from '@interlude/bus';
import { createRuntime, type Runtime } from '@interlude/core';
import type { AgentBase } from '@interlude/core/internal';
import { defineNatsRefundAgent } from './nats-refund-agent.js';
import { FINAL_TEXT } from './refund-chat-responder.js';
import { expectScenario } from './scenario-error.js';
import { now } from './statistics.js';
import type { WorkerSet } from './worker-processes.js';

/** One batch: how long it took and each generation's time from answer to done, in ms. */
export interface BatchTiming {
  generations: number;
  elapsedMs: number;
  answerToDoneMs: number[];
}

/**
 * The process a person's answers come from: it runs each generation to its pause here
 * (`generateNow()` on the NATS bus), answers it with `resumeLater()` onto a worker set's queue,
 * and hears `completed` on the bus. It keeps the books the correctness checks read.
 */
export interface ThroughputDriver {
  runtime: Runtime;
  /** `lanes` closed loops (pause → answer → wait for done → next) until `count` generations are done. */
  runBatch(workers: WorkerSet, count: number, lanes: number): Promise<BatchTiming>;
  /** Every generation completed once with the right answer, each tool body ran once in total. */
  verify(sets: readonly WorkerSet[]): void;
  close(): Promise<void>;
}

export async function startThroughputDriver(servers: string): Promise<ThroughputDriver> {
  const runtime = createRuntime({ bus: natsBus({ servers, name: 'bench-driver' }) });
  const lookups = new Map<string, number>();
  let driverRefunds = 0;
  const agent: AgentBase = defineNatsRefundAgent(runtime, (tool, generationId) => {
    if (tool === 'issue_refund') driverRefunds += 1;
    else lookups.set(generationId, (lookups.get(generationId) ?? 0) + 1);
  });
  const completed = new Map<string, string[]>();
  const waiting = new Map<string, (doneAt: number) => void>();
  await runtime.bus.subscribe({ event: 'completed', agent: 'support' }, (event) => {
    if (event.event !== 'completed') return;
    const texts = completed.get(event.generation_id) ?? [];
    texts.push(event.data.text);
    completed.set(event.generation_id, texts);
    waiting.get(event.generation_id)?.(now());
    waiting.delete(event.generation_id);
  });
  let ticket = 0;

  function completion(generationId: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting.delete(generationId);
        reject(new Error(`generation ${generationId} was answered but never completed within 60 s`));
      }, 60_000);
      waiting.set(generationId, (doneAt) => {
        clearTimeout(timer);
        resolve(doneAt);
      });
    });
  }

  return {
    runtime,
    async runBatch(workers, count, lanes) {
      const answerToDoneMs: number[] = [];
      let started = 0;
      const began = now();
      let failure: unknown;
      const lane = async () => {
        while (started < count && failure === undefined) {
          started += 1;
          ticket += 1;
          const generation = agent.generation('handle', { ticketId: ticket });
          const paused = await generation.generateNow();
          const request = paused.inputRequests[0];
          expectScenario(
            paused.awaitingInput && request !== undefined,
            `generation ${paused.generationId} did not pause`,
          );
          const done = completion(paused.generationId);
          const answeredAt = now();
          await generation.resumeLater({
            checkpoint: paused.checkpoint,
            answers: { [request.toolCallId as string]: true },
            queue: workers.queue,
          });
          answerToDoneMs.push((await done) - answeredAt);
        }
      };
      // A wrong result stops every lane before the batch reports it, so nothing runs on after.
      const settled = await Promise.allSettled(
        Array.from({ length: lanes }, () =>
          lane().catch((error: unknown) => {
            failure ??= error;
            throw error;
          }),
        ),
      );
      if (settled.some((outcome) => outcome.status === 'rejected')) throw failure;
      return { generations: count, elapsedMs: now() - began, answerToDoneMs };
    },
    verify(sets) {
      expectScenario(driverRefunds === 0, `the driver ran issue_refund ${driverRefunds} times; only workers may`);
      for (const [generationId, texts] of completed) {
        expectScenario(texts.length === 1, `generation ${generationId} completed ${texts.length} times`);
        expectScenario(texts[0] === FINAL_TEXT, `generation ${generationId} answered ${JSON.stringify(texts[0])}`);
      }
      expectScenario(
        completed.size === lookups.size,
        `${lookups.size} generations paused, ${completed.size} completed`,
      );
      for (const [generationId, count] of lookups) {
        expectScenario(count === 1, `lookup_order ran ${count} times in the driver for ${generationId}`);
        const inWorkers = sets.map((set) => set.effects.get(generationId)).filter((effects) => effects !== undefined);
        const refunds = inWorkers.reduce((sum, effects) => sum + effects.issue_refund, 0);
        const workerLookups = inWorkers.reduce((sum, effects) => sum + effects.lookup_order, 0);
        expectScenario(refunds === 1, `issue_refund ran ${refunds} times for ${generationId}, expected once`);
        expectScenario(workerLookups === 0, `lookup_order ran again in a worker for ${generationId}`);
      }
    },
    async close() {
      await runtime.close();
    },
  };
}
