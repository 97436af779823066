import { createWorker, memoryBus } from '@interlude/bus';
import { eventually } from '@interlude/bus/testing';
import { createRuntime } from '@interlude/core';
import { expiryJobFor, type JobOutcome } from '@interlude/core/internal';
import { describe, expect, it, vi } from 'vitest';
import { defineGoAheadAgent } from '../support/go-ahead-agent.js';

/**
 * Issue 27's fourth row on the memory bus: a first pause (claim slot 0) answered through a job.
 * While the answer runs, `pending()` must not list the pause; its expiry job is `expiry_<gen>_0`;
 * once answered, its deadline finds nothing to do and nothing is dead-lettered.
 */
describe('a first pause (claim slot 0), answered by a worker on the memory bus', () => {
  it('is not listed while its answer runs, its expiry job is expiry_<gen>_0, and its deadline then does nothing', async () => {
    const runtime = createRuntime({ bus: memoryBus() });
    const listedWhileRunning: string[][] = [];
    const ran: unknown[] = [];
    const desk = defineGoAheadAgent(runtime, {
      name: 'desk',
      expiresIn: 1_000,
      onRun: async (answer) => {
        listedWhileRunning.push((await runtime.pending()).map((pause) => pause.generationId));
        ran.push(answer);
      },
    });
    const outcomes: JobOutcome[] = [];
    const worker = createWorker({
      runtime,
      agents: [desk],
      queue: 'desk',
      onJob: (_job: unknown, outcome: JobOutcome) => void outcomes.push(outcome),
    });
    await worker.ready;

    const paused = await desk.handle({}).generateNow();
    const checkpoint = paused.checkpoint as NonNullable<typeof paused.checkpoint>;
    expect(checkpoint.claim_slot).toBe(0);
    const timer = {
      version: 1 as const,
      generation_id: paused.generationId,
      agent: 'desk',
      action: 'handle',
      claim_slot: checkpoint.claim_slot,
      due_at: checkpoint.input_expires_at as string,
    };
    // The job a worker would run at the deadline (read as if the clock were past it).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse(timer.due_at) + 1 });
    try {
      expect((await expiryJobFor(runtime, timer))?.id).toBe(`expiry_${paused.generationId}_0`);
    } finally {
      vi.useRealTimers();
    }
    expect((await runtime.pending()).map((pause) => pause.generationId)).toEqual([paused.generationId]);

    await runtime.answerLater(paused.generationId, { call_go: true }, { queue: 'desk' });
    await eventually(() => outcomes.length === 1, 'the answer job');
    expect(outcomes[0]?.status).toBe('completed');
    expect(ran).toEqual([true]);
    expect(listedWhileRunning).toEqual([[]]);
    expect(await runtime.pending()).toEqual([]);

    // Past the deadline: the runtime's timer found the pause answered, and a worker would find no job to run.
    await eventually(() => Date.now() > Date.parse(timer.due_at) + 100, 'the deadline');
    expect(await expiryJobFor(runtime, timer)).toBeUndefined();
    const names = (await runtime.bus.events(paused.generationId)).map((event) => event.event);
    expect(names).not.toContain('input_expired');
    expect(names.at(-1)).toBe('completed');
    expect(await runtime.bus.jobs.deadLetters('desk')).toEqual([]);
    await worker.stop();
    await runtime.close();
  });
});
