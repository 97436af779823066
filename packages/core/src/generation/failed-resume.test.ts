import { describe, expect, it } from 'vitest';
import { scriptedAgent, throughJson } from '../test-support/harness.js';
import { createRefundScenario } from '../testing/refund-fixture.js';

describe('a resume that fails part-way', () => {
  it('can be resumed again from the same checkpoint, logs each failure, and never runs a tool twice', async () => {
    const scenario = createRefundScenario();
    const failing = (message: string) => () => {
      throw new Error(message);
    };
    const { agent, runtime } = scriptedAgent(scenario.action, [
      scenario.replies[0] as never,
      failing('first outage'),
      failing('second outage'),
      scenario.replies[1] as never,
    ]);
    const paused = await agent.handle({ ticketId: 5 }).generateNow();
    const checkpoint = throughJson(paused.checkpoint);

    await expect(
      agent.handle({ ticketId: 5 }).resumeNow({ checkpoint, answers: { call_refund: true } }),
    ).rejects.toThrow('first outage');
    await expect(
      agent.handle({ ticketId: 5 }).resumeNow({ checkpoint, answers: { call_refund: true } }),
    ).rejects.toThrow('second outage');
    const done = await agent.handle({ ticketId: 5 }).resumeNow({ checkpoint, answers: { call_refund: true } });

    expect(done.text).toBe('I refunded $30 on order 42.');
    expect(scenario.runs).toEqual({ lookup_order: 1, issue_refund: 1 });
    const events = await runtime.bus.events(paused.generationId);
    const failures = events.filter((event) => event.event === 'failed');
    expect(failures.map((event) => (event.data as { error: { message: string } }).error.message)).toEqual([
      'first outage',
      'second outage',
    ]);
    expect(events.filter((event) => event.event === 'tool_completed')).toHaveLength(2);
    expect(events.at(-1)?.event).toBe('completed');
  });
});
