import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InputRequest } from '../input-request/input-request.js';
import { expectRebuildMatches, scriptedAgent, throughJson } from '../test-support/harness.js';
import { createRefundScenario } from '../testing/refund-fixture.js';
import { tool } from '../tool/tool.js';

describe('declines and repeated pauses', () => {
  it('a decline gives the model {"error":"declined by user"} and the tool does not run', async () => {
    const scenario = createRefundScenario();
    const { agent, provider, runtime } = scriptedAgent(scenario.action, [...scenario.replies]);
    const paused = await agent.handle({ ticketId: 1 }).generateNow();
    await expectRebuildMatches(runtime, paused);
    const done = await agent
      .handle({ ticketId: 1 })
      .resumeNow({ checkpoint: throughJson(paused.checkpoint), answers: { call_refund: false } });

    expect(done.status).toBe('completed');
    expect(scenario.runs.issue_refund).toBe(0);
    const results = provider.requests[1]?.messages.at(-1) as {
      content: Array<{ tool_use_id: string; content: string; is_error?: boolean }>;
    };
    expect(results.content[1]).toEqual({
      type: 'tool_result',
      tool_use_id: 'call_refund',
      content: '{"error":"declined by user"}',
      is_error: true,
    });
    const events = await runtime.bus.events(paused.generationId);
    expect(events.find((event) => event.event === 'resumed')?.data).toEqual({
      answered_tool_calls: ['call_refund'],
      declined_tool_calls: ['call_refund'],
    });
  });

  it('a text answer that leads the tool to ask a choice pauses again with the same completed results and no model call', async () => {
    const runs = { lookup: 0, triage: 0 };
    const lookup = tool({ name: 'lookup', description: 'Look up', input: z.object({}), run: () => ++runs.lookup });
    const triage = tool({
      name: 'triage',
      description: 'Route a ticket',
      input: z.object({}),
      run(_, ctx) {
        runs.triage += 1;
        if (ctx.answer === undefined) return InputRequest.text('What is the problem?');
        if (ctx.answer !== 'billing' && ctx.answer !== 'tech') {
          return InputRequest.choice(`Which team handles "${ctx.answer}"?`, { options: ['billing', 'tech'] });
        }
        return { routed: ctx.answer };
      },
    });
    const { agent, provider, runtime } = scriptedAgent(
      () => ({ message: 'Triage', tools: [lookup, triage] }),
      [
        {
          toolCalls: [
            { id: 'c1', name: 'lookup', arguments: {} },
            { id: 'c2', name: 'triage', arguments: {} },
          ],
        },
        { text: 'Routed.' },
      ],
    );
    const first = await agent.handle({}).generateNow();
    expect(first.inputRequests[0]?.kind).toBe('text');
    await expectRebuildMatches(runtime, first);

    const second = await agent
      .handle({})
      .resumeNow({ checkpoint: throughJson(first.checkpoint), answers: { c2: 'my card was charged twice' } });
    expect(second.awaitingInput).toBe(true);
    expect(second.inputRequests.map((request) => request.toJSON())).toEqual([
      {
        kind: 'choice',
        prompt: 'Which team handles "my card was charged twice"?',
        options: ['billing', 'tech'],
        tool_call_id: 'c2',
        tool_name: 'triage',
        arguments: {},
      },
    ]);
    expect(second.checkpoint?.completed_results).toEqual(first.checkpoint?.completed_results);
    expect(second.checkpoint?.tool_turns).toBe(1);
    expect(provider.requests).toHaveLength(1);
    expect(second.generationId).toBe(first.generationId);
    await expectRebuildMatches(runtime, second);

    const done = await agent
      .handle({})
      .resumeNow({ checkpoint: throughJson(second.checkpoint), answers: { c2: 'billing' } });
    expect(done.text).toBe('Routed.');
    expect(runs).toEqual({ lookup: 1, triage: 3 });
    expect(provider.requests).toHaveLength(2);
  });

  it('a later turn can pause again: tool_turns 2 and the whole conversation in the checkpoint', async () => {
    const scenario = createRefundScenario();
    const { agent, runtime } = scriptedAgent(scenario.action, [
      scenario.replies[0] as never,
      { toolCalls: [{ id: 'call_refund_2', name: 'issue_refund', arguments: { order_id: 43, amount: 5 } }] },
      { text: 'Both refunded.' },
    ]);
    const first = await agent.handle({ ticketId: 9 }).generateNow();
    const second = await agent
      .handle({ ticketId: 9 })
      .resumeNow({ checkpoint: throughJson(first.checkpoint), answers: { call_refund: true } });

    expect(second.awaitingInput).toBe(true);
    expect(second.checkpoint?.tool_turns).toBe(2);
    expect(second.checkpoint?.completed_results).toEqual({});
    // user, assistant(2 calls), user(2 results), assistant(1 call)
    expect(second.checkpoint?.messages).toHaveLength(4);
    expect(second.checkpoint?.messages[0]).toEqual({ role: 'user', content: 'Resolve support ticket 9' });
    await expectRebuildMatches(runtime, second);

    const done = await agent
      .handle({ ticketId: 9 })
      .resumeNow({ checkpoint: throughJson(second.checkpoint), answers: { call_refund_2: true } });
    expect(done.text).toBe('Both refunded.');
    expect(scenario.refunds).toEqual([
      { order_id: 42, amount: 30 },
      { order_id: 43, amount: 5 },
    ]);
  });
});
