import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CHECKPOINT_KEYS, type Checkpoint } from '../checkpoint/checkpoint.js';
import { withCheckpointDefaults } from '../checkpoint/checkpoint-defaults.js';
import { expectRebuildMatches, scriptedAgent, throughJson } from '../test-support/harness.js';
import { createRefundScenario } from '../testing/refund-fixture.js';
import type { StreamPart } from './generation-stream.js';

describe('the refund scenario', () => {
  it('pauses the refund, runs the lookup once, and resumes from a JSON checkpoint in a fresh generation', async () => {
    const scenario = createRefundScenario();
    const { agent, provider, runtime } = scriptedAgent(scenario.action, scenario.replies);

    const paused = await agent.handle({ ticketId: 42 }).generateNow();

    expect(paused.awaitingInput).toBe(true);
    expect(paused.status).toBe('awaiting_input');
    expect(scenario.runs).toEqual({ lookup_order: 1, issue_refund: 0 });
    expect(paused.inputRequests.map((request) => request.toJSON())).toEqual([
      {
        kind: 'confirm',
        prompt: 'Refund $30 on order 42?',
        tool_call_id: 'call_refund',
        tool_name: 'issue_refund',
        arguments: { order_id: 42, amount: 30 },
      },
    ]);
    const checkpoint = throughJson(paused.checkpoint);
    expect(Object.keys(checkpoint ?? {})).toEqual(
      // Signed by default (a random key per process): no trace, no audience, expiry or deadline configured,
      // and what holds its default is left out (no gate, no delegation, a one-message turn, the
      // generation's own conversation); the claim slot, 0, is written.
      CHECKPOINT_KEYS.filter(
        (key) =>
          ![
            'traceparent',
            'conversation_id',
            'audience',
            'expires_at',
            'input_expires_at',
            'tool_choice_cleared',
            'tool_call_turn_size',
            'approval_tool_calls',
            'approved_tool_calls',
            'mcp_tool_calls',
            'delegations',
          ].includes(key),
      ),
    );
    expect(checkpoint?.completed_results).toEqual({
      call_lookup: { tool_name: 'lookup_order', result: { order_id: 42, total: 120, status: 'delivered' } },
    });
    expect(withCheckpointDefaults(checkpoint as Checkpoint)).toMatchObject({
      tool_choice_cleared: false,
      tool_call_turn_size: 1,
      approval_tool_calls: [],
      approved_tool_calls: [],
      mcp_tool_calls: [],
      claim_slot: 0,
      completed_results: { call_lookup: { is_error: false } },
    });
    await expectRebuildMatches(runtime, paused);

    const done = await agent.handle({ ticketId: 42 }).resumeNow({ checkpoint, answers: { call_refund: true } });

    expect(done.status).toBe('completed');
    expect(done.text).toBe('I refunded $30 on order 42.');
    expect(done.generationId).toBe(paused.generationId);
    expect(scenario.runs).toEqual({ lookup_order: 1, issue_refund: 1 });
    expect(provider.requests).toHaveLength(2);
    expect(provider.requests[1]?.messages.at(-1)).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'call_lookup',
          content: '{"order_id":42,"total":120,"status":"delivered"}',
        },
        { type: 'tool_result', tool_use_id: 'call_refund', content: '{"refunded":30}' },
      ],
    });
    // The instructions go with every request and never into the stored conversation.
    expect(provider.requests.map((request) => request.instructions)).toEqual([
      'You resolve support tickets.',
      'You resolve support tickets.',
    ]);
    expect(JSON.stringify(checkpoint?.messages)).not.toContain('You resolve support tickets.');
  });

  it('publishes every transition to the bus, in order, on one generation id', async () => {
    const scenario = createRefundScenario();
    const { agent, runtime } = scriptedAgent(scenario.action, scenario.replies);
    const paused = await agent.handle({ ticketId: 42 }).generateNow();
    await agent.handle({ ticketId: 42 }).resumeNow({ checkpoint: paused.checkpoint, answers: { call_refund: true } });

    const events = await runtime.bus.events(paused.generationId);
    // Each body's intent (`tool_started`) is stored before it runs, the refund's question included.
    expect(events.map((event) => event.event)).toEqual([
      'started',
      'model_responded',
      'tool_started',
      'tool_completed',
      'tool_started',
      'input_requested',
      'resumed',
      'tool_started',
      'tool_completed',
      'model_responded',
      'completed',
    ]);
    expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
    expect(events.every((event) => event.generation_id === paused.generationId && event.version === 1)).toBe(true);
    const requested = events.find((event) => event.event === 'input_requested');
    expect(requested?.data).toMatchObject({ input_requests: [{ tool_call_id: 'call_refund', kind: 'confirm' }] });
  });

  it('streams the same generation as parts and ends with the same response', async () => {
    const scenario = createRefundScenario();
    const { agent } = scriptedAgent(scenario.action, scenario.replies);
    const stream = agent.handle({ ticketId: 42 }).stream();
    const parts: StreamPart[] = [];
    for await (const part of stream) parts.push(part);
    const paused = await stream.response;

    expect(parts.map((part) => part.type)).toEqual([
      'text-delta',
      'text-delta',
      'tool-call',
      'tool-call',
      'tool-result',
      'input-request',
      'end',
    ]);
    expect(parts.at(-1)).toEqual({ type: 'end', response: paused });
    expect(paused.awaitingInput).toBe(true);

    const resumed = agent
      .handle({ ticketId: 42 })
      .resumeStream({ checkpoint: paused.checkpoint, answers: { call_refund: true } });
    const resumedParts: string[] = [];
    for await (const part of resumed) resumedParts.push(part.type);
    expect(resumedParts).toEqual(['tool-result', 'text-delta', 'text-delta', 'end']);
    expect((await resumed.response).text).toBe('I refunded $30 on order 42.');
    expect(scenario.runs).toEqual({ lookup_order: 1, issue_refund: 1 });
  });

  it('signs the checkpoint when the runtime has a key, and the event log rebuilds it signature and all', async () => {
    const key = 'a-checkpoint-key-of-some-length';
    const scenario = createRefundScenario();
    const { agent, runtime } = scriptedAgent(scenario.action, scenario.replies, { checkpointKey: key });
    const paused = await agent.handle({ ticketId: 42 }).generateNow();
    expect(paused.checkpoint?.signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Object.keys(paused.checkpoint ?? {}).at(-1)).toBe('signature');
    expect(paused.checkpoint?.key_id).toBe(createHash('sha256').update(key).digest('hex').slice(0, 8));
    await expectRebuildMatches(runtime, paused);
    const done = await agent
      .handle({ ticketId: 42 })
      .resumeNow({ checkpoint: throughJson(paused.checkpoint), answers: { call_refund: true } });
    expect(done.status).toBe('completed');
  });

  it('resumes by generation id from the runtime store', async () => {
    const scenario = createRefundScenario();
    const { agent, runtime } = scriptedAgent(scenario.action, scenario.replies);
    const paused = await agent.handle({ ticketId: 42 }).generateNow();
    const done = await runtime.answer(paused.generationId, { call_refund: true });
    expect(done.text).toBe('I refunded $30 on order 42.');
    expect(scenario.refunds).toEqual([{ order_id: 42, amount: 30 }]);
  });
});
