import { describe, expect, it } from 'vitest';
import { ResumeError } from '../errors/resume-error.js';
import { scriptedAgent, throughJson } from '../test-support/harness.js';
import { createRefundScenario } from '../testing/refund-fixture.js';
import { createMemoryBus } from './memory-bus.js';

const KEY = 'one-process-many-runtimes-key-0123';

async function outcome(promise: Promise<{ status: string }>): Promise<string> {
  return promise.then(
    (response) => response.status,
    (error: unknown) => (ResumeError.isInstance(error) ? error.code : String(error)),
  );
}

describe('one process, many runtimes with one key, each on a memory bus of its own', () => {
  it('of one checkpoint resumed on both at once, one runs the body and the other is refused already_resumed', async () => {
    const scenario = createRefundScenario();
    const first = scriptedAgent(scenario.action, [...scenario.replies], { checkpointKey: KEY, bus: createMemoryBus() });
    const second = scriptedAgent(scenario.action, [scenario.replies[1] as never], {
      checkpointKey: KEY,
      bus: createMemoryBus(),
    });
    const paused = await first.agent.handle({ ticketId: 7 }).generateNow();
    const checkpoint = throughJson(paused.checkpoint);
    const answers = { call_refund: true };

    const outcomes = await Promise.all([
      outcome(first.agent.handle({ ticketId: 7 }).resumeNow({ checkpoint, answers })),
      outcome(second.agent.handle({ ticketId: 7 }).resumeNow({ checkpoint, answers })),
    ]);
    expect(outcomes.sort()).toEqual(['already_resumed', 'completed']);
    expect(scenario.refunds).toEqual([{ order_id: 42, amount: 30 }]);
    // The runtime that lost sees the pause as taken: not listed, and answering it by id is refused.
    expect(await first.runtime.pending()).toEqual([]);
    expect(await outcome(first.runtime.answer(paused.generationId, answers))).toBe('already_resumed');
    expect(scenario.refunds).toHaveLength(1);
  });

  it('a runtime made after the first closed (a hot reload) still refuses what the first resumed', async () => {
    const scenario = createRefundScenario();
    const before = scriptedAgent(scenario.action, [...scenario.replies], {
      checkpointKey: KEY,
      bus: createMemoryBus(),
    });
    const paused = await before.agent.handle({ ticketId: 8 }).generateNow();
    const checkpoint = throughJson(paused.checkpoint);
    await before.agent.handle({ ticketId: 8 }).resumeNow({ checkpoint, answers: { call_refund: true } });
    await before.runtime.close();

    const after = scriptedAgent(scenario.action, [scenario.replies[1] as never], {
      checkpointKey: KEY,
      bus: createMemoryBus(),
    });
    const replay = after.agent.handle({ ticketId: 8 }).resumeNow({ checkpoint, answers: { call_refund: true } });
    expect(await outcome(replay)).toBe('already_resumed');
    expect(scenario.refunds).toHaveLength(1);
  });

  it('a runtime rotating keys (signing with a new one, still accepting the old) and one holding only the old resume a checkpoint once between them', async () => {
    const scenario = createRefundScenario();
    const old = `${KEY}-old`;
    const rotated = `${KEY}-new`;
    const before = scriptedAgent(scenario.action, [...scenario.replies], {
      checkpointKey: old,
      bus: createMemoryBus(),
    });
    const rotating = scriptedAgent(scenario.action, [scenario.replies[1] as never], {
      checkpointKey: [rotated, old],
      bus: createMemoryBus(),
    });
    const paused = await before.agent.handle({ ticketId: 9 }).generateNow();
    const checkpoint = throughJson(paused.checkpoint);
    const answers = { call_refund: true };

    const outcomes = await Promise.all([
      outcome(before.agent.handle({ ticketId: 9 }).resumeNow({ checkpoint, answers })),
      outcome(rotating.agent.handle({ ticketId: 9 }).resumeNow({ checkpoint, answers })),
    ]);
    expect(outcomes.sort()).toEqual(['already_resumed', 'completed']);
    expect(scenario.refunds).toEqual([{ order_id: 42, amount: 30 }]);
  });
});
