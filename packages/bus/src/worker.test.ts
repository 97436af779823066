import { createRuntime, defineAgent } from '@interlude/core';
import type { JobOutcome } from '@interlude/core/internal';
import { createRefundScenario, scriptedProvider } from '@interlude/core/testing';
import { describe, expect, it, vi } from 'vitest';
import { memoryBus } from './memory-bus.js';
import { eventually } from './testing/index.js';
import { createWorker } from './worker.js';

/** A refund desk and its worker; `onJob` collects outcomes unless `reportsItself` leaves the default. */
function setUp(options: { queue?: string; reportsItself?: boolean } = {}) {
  const runtime = createRuntime({ bus: memoryBus() });
  const scenario = createRefundScenario();
  const support = defineAgent({
    name: 'support',
    runtime,
    provider: scriptedProvider(scenario.replies),
    actions: { handle: scenario.action },
  });
  const outcomes: JobOutcome[] = [];
  const worker = createWorker({
    runtime,
    agents: [support],
    queue: options.queue ?? 'agents',
    concurrency: 2,
    ...(options.reportsItself !== true && {
      onJob: (_job: unknown, outcome: JobOutcome) => void outcomes.push(outcome),
    }),
  });
  return { runtime, scenario, support, outcomes, worker };
}

describe('createWorker', () => {
  it('runs a generateLater job to its pause, then the resumeLater job to completion', async () => {
    const { runtime, scenario, support, outcomes, worker } = setUp();
    await worker.ready;
    const { generationId } = await support.handle({ ticketId: 42 }).generateLater({ queue: 'agents' });
    await eventually(() => outcomes.length === 1, 'the generate job');
    expect(outcomes[0]?.status).toBe('awaiting_input');

    await runtime.answerLater(generationId, { call_refund: true }, { queue: 'agents' });
    await eventually(() => outcomes.length === 2, 'the resume job');
    expect(outcomes[1]?.status).toBe('completed');
    expect(scenario.runs).toEqual({ lookup_order: 1, issue_refund: 1 });
    expect((await runtime.bus.events(generationId)).at(-1)?.event).toBe('completed');
    await worker.stop();
  });

  it('acknowledges a job it must refuse (an unknown agent) instead of retrying it forever', async () => {
    const { runtime, outcomes, worker } = setUp();
    await runtime.bus.jobs.enqueue('agents', {
      version: 1,
      id: 'job_unknown',
      kind: 'generate',
      agent: 'nobody',
      action: 'handle',
      params: {},
      generation_id: 'gen_unknown',
    });
    await eventually(() => outcomes.length === 1, 'the refused job');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['refused']);
    await worker.stop();
  });

  it('refuses a queue name that cannot be a subject token', () => {
    const runtime = createRuntime({ bus: memoryBus() });
    expect(() => createWorker({ runtime, agents: [], queue: 'a.b' })).toThrow(TypeError);
  });

  it('says on stderr which job it refused as unsigned, when no onJob is given, and runs nothing', async () => {
    const said = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { runtime, scenario, worker } = setUp({ queue: 'unsigned', reportsItself: true });
    await worker.ready;
    await runtime.bus.jobs.enqueue('unsigned', {
      version: 1,
      id: 'job-from-nobody',
      kind: 'generate',
      agent: 'support',
      action: 'handle',
      params: { ticketId: 42 },
      generation_id: 'gen_00000000000000000000000000000001',
    });
    await eventually(() => said.mock.calls.length > 0, 'the refusal on stderr');
    expect(String(said.mock.calls[0]?.[0])).toMatch(/refused job "job-from-nobody" \(unsigned_job\)/);
    expect(scenario.runs).toEqual({ lookup_order: 0, issue_refund: 0 });
    await worker.stop();
    said.mockRestore();
  });
});
