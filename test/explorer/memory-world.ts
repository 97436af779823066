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
  /** Jobs queued and not reported, by generation. */
  const running = new Map<string, number>();
  const count = (generationId: string, by: number) => running.set(generationId, (running.get(generationId) ?? 0) + by);
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
    onJob: (job: { generation_id: string }, _outcome: JobOutcome) => {
      count(job.generation_id, -1);
    },
  });
  const jobs = (generationIds: Iterable<string> = running.keys()) => {
    let total = 0;
    for (const generationId of generationIds) total += running.get(generationId) ?? 0;
    return total;
  };
  let elsewhere: { runtime: Runtime; agent: ReturnType<typeof defineExplorerAgent> } | undefined;

  const world: ExplorerWorld & { close(): Promise<void> } = {
    runtime,
    observed,
    async answerLater(generationId, answers) {
      const queued = await runtime.answerLater(generationId, answers, { queue });
      count(generationId, 1);
      return queued;
    },
    async start(params: ExplorerParams, generationId: string) {
      await agent.handle(params).generateNow({ generationId });
    },
    bodyRuns: async () => runs,
    horizonMs: 60_000,
    strictSteps: true,
    phantoms: new Set(),
    // One process, no stalls: nothing can still be inside a call.
    beforeOutcomeUnknownAnswer: async () => undefined,
    // The bus is in this process: a keyless client here stands for one writing through the bus's
    // own stores (no key, so nothing it writes is signed). Nothing outside the process can delete
    // from a memory index, or write a record under a key its body does not name.
    keyless: {
      async writePending(key, record) {
        if (record['generation_id'] === key) await runtime.bus.pending?.put(record as never);
      },
      async writeClaim(generationId, slot, record) {
        await runtime.bus.claims.write(generationId, slot, record as never);
      },
      async preemptTimers(generationId) {
        const timer = { version: 1 as const, generation_id: generationId, agent: 'desk', action: 'handle' };
        for (const slot of [0, 1, 2, 3, 4]) {
          await runtime.bus.timers?.schedule({ ...timer, claim_slot: slot, due_at: new Date().toISOString() });
        }
      },
    },
    advance: (ms) => clock.advance(ms),
    async quiesce() {
      for (let round = 0; round < 1_000 && jobs() > 0; round += 1) await clock.flush();
    },
    jobsRunning: (generationIds) => jobs(generationIds),
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
