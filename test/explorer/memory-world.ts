import { createWorker } from '@interlude/bus';
import { createRuntime, type Runtime } from '@interlude/core';
import { createMemoryBus, type JobOutcome } from '@interlude/core/internal';
import { defineExplorerAgent, type ExplorerParams } from './explorer-agent.js';
import type { Violation } from './invariants.js';
import type { ExplorerWorld } from './schedule-runner.js';

/** How the memory explorer moves time: a virtual clock the test owns (vitest's fake timers). */
export interface VirtualClock {
  advance(ms: number): Promise<void>;
  /** Runs what is due now (timers at 0 ms, the microtasks they start). */
  flush(): Promise<void>;
}

/**
 * One schedule's world on the memory bus: a runtime, the explorer's agent, a worker in this
 * process for `answerLater`, and a second runtime on a bus of its own for `answer-elsewhere`.
 * Inside every approved body it reads `pending()`: the pause just answered must not be listed.
 */
export function createMemoryWorld(clock: VirtualClock) {
  const runs = new Map<string, number>();
  const observed: Violation[] = [];
  const queue = 'explorer';
  let running = 0;
  const runtime: Runtime = createRuntime({ bus: createMemoryBus() });
  const bodyRan = (generationId: string, toolCallId: string) => {
    const key = `${generationId} ${toolCallId}`;
    runs.set(key, (runs.get(key) ?? 0) + 1);
  };
  const agent = defineExplorerAgent(runtime, {
    bodyRan,
    async insideBody(generationId) {
      if ((await runtime.pending()).some((entry) => entry.generationId === generationId)) {
        observed.push({
          invariant: 3,
          row: 'pending-lists-answer-in-flight',
          generation: generationId,
          detail: 'pending() lists the pause whose approved body is running',
        });
      }
    },
  });
  const worker = createWorker({
    runtime,
    agents: [agent],
    queue,
    onJob: (_job: unknown, _outcome: JobOutcome) => {
      running -= 1;
    },
  });
  let elsewhere: { runtime: Runtime; agent: ReturnType<typeof defineExplorerAgent> } | undefined;

  const world: ExplorerWorld & { close(): Promise<void> } = {
    runtime,
    observed,
    async answerLater(generationId, answers) {
      const queued = await runtime.answerLater(generationId, answers, { queue });
      running += 1;
      return queued;
    },
    async start(params: ExplorerParams, generationId: string) {
      await agent.handle(params).generateNow({ generationId });
    },
    bodyRuns: async () => runs,
    horizonMs: 60_000,
    strictSteps: true,
    phantoms: new Set(),
    // One process, no stalls: the ledger is final whenever the person reads it.
    rerunDecision: async (generationId, toolCallId) => (runs.get(`${generationId} ${toolCallId}`) ?? 0) === 0,
    advance: (ms) => clock.advance(ms),
    async quiesce() {
      for (let round = 0; round < 1_000 && running > 0; round += 1) await clock.flush();
    },
    jobsRunning: () => running,
    others: () => (elsewhere === undefined ? [] : [elsewhere.runtime]),
    async resumeElsewhere(params, checkpoint, answers) {
      if (elsewhere === undefined) {
        const other = createRuntime({ bus: createMemoryBus() });
        elsewhere = { runtime: other, agent: defineExplorerAgent(other, { bodyRan }) };
      }
      await elsewhere.agent.handle(params).resumeNow({ checkpoint: checkpoint as never, answers });
    },
    async close() {
      await worker.stop();
      await runtime.close();
      await elsewhere?.runtime.close();
    },
  };
  return world;
}
