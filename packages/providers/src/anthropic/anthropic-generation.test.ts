import type { Checkpoint } from '@interlude/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { anthropicReply } from '../testing/anthropic-replies.js';
import { loadFixtures } from '../testing/fixtures.js';
import { runToStop, throughJson } from '../testing/run-to-stop.js';
import { createSupportDesk, SUPPORT_INSTRUCTIONS } from '../testing/support-desk.js';
import { createWireServer, type WireReply, type WireServer } from '../testing/wire-server.js';
import { anthropic } from './anthropic-adapter.js';

const fixtures = loadFixtures(new URL('./__fixtures__/', import.meta.url));
const MODEL = 'claude-sonnet-5-5';
type Message = { content: Record<string, unknown>[] } & Record<string, unknown>;

let server: WireServer;
beforeEach(async () => {
  server = await createWireServer();
});
afterEach(() => server.close());

describe.each([false, true])('anthropic generations (stream: %s)', (stream) => {
  const reply = (name: string): WireReply =>
    stream && name === 'refund-tool-use'
      ? { sse: fixtures.chunks(name), namedEvents: true } // the recorded stream
      : anthropicReply(fixtures.json(name), { stream });
  const desk = () => createSupportDesk(anthropic({ model: MODEL, baseURL: server.url, apiKey: 'test', maxRetries: 0 }));
  const bodies = () => server.requests.map((request) => request.body as Record<string, unknown>);

  it('refund: pauses on the confirm, resumes from JSON, runs each tool once, sends both results in order', async () => {
    const { agent, runs } = desk();
    server.enqueue('/v1/messages', reply('refund-tool-use'), reply('refund-done'));
    const refundTurn = fixtures.json<Message>('refund-tool-use');

    const paused = await runToStop(agent.handle({ ticketId: 42 }), { stream });
    expect(paused.response.awaitingInput).toBe(true);
    expect(paused.response.inputRequests.map((request) => request.toJSON())).toEqual([
      {
        kind: 'confirm',
        prompt: 'Refund $25 on order 42?',
        tool_call_id: 'toolu_02Refund',
        tool_name: 'issue_refund',
        arguments: { order_id: 42, amount: 25 },
      },
    ]);
    expect(runs).toMatchObject({ lookup_order: 1, issue_refund: 0 });
    const checkpoint = throughJson(paused.response.checkpoint as Checkpoint);
    expect(checkpoint).toMatchObject({ service: 'anthropic', provider: 'anthropic.messages', model: MODEL });
    expect(checkpoint.messages).toEqual([
      { role: 'user', content: 'Resolve support ticket 42' },
      { role: 'assistant', content: refundTurn.content },
    ]);
    expect(checkpoint.tool_call_turn_size).toBe(1);

    const done = await runToStop(agent.handle({ ticketId: 42 }), {
      stream,
      resume: { checkpoint, answers: { toolu_02Refund: true } },
    });
    expect(done.response.awaitingInput).toBe(false);
    expect(done.response.text).toBe('Refunded $25 on order 42.');
    expect(done.response.rawFinishReason).toBe('end_turn');
    expect(runs).toMatchObject({ lookup_order: 1, issue_refund: 1 });
    expect(server.requests).toHaveLength(2);

    const [first = {}, resumed] = bodies();
    expect(resumed).toEqual({
      model: MODEL,
      max_tokens: 4096,
      system: SUPPORT_INSTRUCTIONS,
      messages: [
        { role: 'user', content: 'Resolve support ticket 42' },
        { role: 'assistant', content: refundTurn.content },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'toolu_01Lookup',
              content: '{"order_id":42,"total":120,"status":"delivered"}',
            },
            { type: 'tool_result', tool_use_id: 'toolu_02Refund', content: '{"refunded":25}' },
          ],
        },
      ],
      tools: first.tools,
      ...(stream ? { stream: true } : {}),
    });
    expect((first.tools as { name: string }[]).map((tool) => tool.name)).toEqual([
      'lookup_order',
      'issue_refund',
      'close_account',
    ]);
    expect((first.tools as unknown[])[0]).toEqual({
      name: 'lookup_order',
      description: 'Find an order by id',
      input_schema: {
        type: 'object',
        properties: { order_id: { type: 'number' } },
        required: ['order_id'],
      },
    });

    if (stream) {
      const calls = [...paused.parts, ...done.parts].filter((part) => part.type === 'tool-call');
      expect(calls.map((part) => part.toolCall.id)).toEqual(['toolu_01Lookup', 'toolu_02Refund']);
      const results = [...paused.parts, ...done.parts].filter((part) => part.type === 'tool-result');
      expect(results.map((part) => part.toolCallId)).toEqual(['toolu_01Lookup', 'toolu_02Refund']);
      const text = done.parts.flatMap((part) => (part.type === 'text-delta' ? [part.text] : [])).join('');
      expect(text).toBe('Refunded $25 on order 42.');
    }
  });

  it('decline: the refund never runs and the model reads the refusal', async () => {
    const { agent, runs } = desk();
    server.enqueue('/v1/messages', reply('refund-tool-use'), reply('refund-declined'));
    const paused = await runToStop(agent.handle({ ticketId: 42 }), { stream });
    const checkpoint = throughJson(paused.response.checkpoint as Checkpoint);

    const done = await runToStop(agent.handle({ ticketId: 42 }), {
      stream,
      resume: { checkpoint, answers: { toolu_02Refund: false } },
    });
    expect(done.response.text).toBe('The refund was declined, so order 42 is unchanged.');
    expect(runs).toMatchObject({ lookup_order: 1, issue_refund: 0 });
    const resumed = bodies()[1] as { messages: { content: unknown }[] };
    expect(resumed.messages[2]?.content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'toolu_01Lookup',
        content: '{"order_id":42,"total":120,"status":"delivered"}',
      },
      { type: 'tool_result', tool_use_id: 'toolu_02Refund', content: '{"error":"declined by user"}', is_error: true },
    ]);
  });

  it('approval gate: pauses before close_account runs, and the gate never reaches the API', async () => {
    const { agent, runs } = desk();
    server.enqueue('/v1/messages', reply('close-account-tool-use'), reply('refund-done'));
    const paused = await runToStop(agent.handle({ ticketId: 7 }), { stream });
    expect(paused.response.inputRequests.map((request) => request.toJSON())).toMatchObject([
      { kind: 'confirm', tool_call_id: 'toolu_03Close', tool_name: 'close_account', metadata: { approval: true } },
    ]);
    expect(runs.close_account).toBe(0);

    const checkpoint = throughJson(paused.response.checkpoint as Checkpoint);
    await runToStop(agent.handle({ ticketId: 7 }), {
      stream,
      resume: { checkpoint, answers: { toolu_03Close: true } },
    });
    expect(runs.close_account).toBe(1);
    for (const body of bodies()) {
      expect(JSON.stringify(body)).not.toMatch(/approval|requiresApproval|requires_approval/i);
      expect(Object.keys(body).sort()).toEqual(
        ['max_tokens', 'messages', 'model', 'system', 'tools', ...(stream ? ['stream'] : [])].sort(),
      );
    }
  });

  it('a second pause in a later turn replays earlier messages exactly once', async () => {
    const { agent, runs } = desk();
    server.enqueue('/v1/messages', reply('refund-tool-use'), reply('close-account-tool-use'), reply('refund-done'));
    const first = await runToStop(agent.handle({ ticketId: 42 }), { stream });
    const firstCheckpoint = throughJson(first.response.checkpoint as Checkpoint);
    const second = await runToStop(agent.handle({ ticketId: 42 }), {
      stream,
      resume: { checkpoint: firstCheckpoint, answers: { toolu_02Refund: true } },
    });
    expect(second.response.awaitingInput).toBe(true);
    const roles = (messages: unknown[]) =>
      messages.map((message) => {
        const { role, content } = message as { role: string; content: unknown };
        const blocks = Array.isArray(content) ? content.map((block) => (block as { type: string }).type) : ['string'];
        return `${role}:${blocks.join('+')}`;
      });
    expect(roles((second.response.checkpoint as Checkpoint).messages)).toEqual([
      'user:string',
      'assistant:text+tool_use+tool_use',
      'user:tool_result+tool_result',
      'assistant:tool_use',
    ]);

    const secondCheckpoint = throughJson(second.response.checkpoint as Checkpoint);
    const done = await runToStop(agent.handle({ ticketId: 42 }), {
      stream,
      resume: { checkpoint: secondCheckpoint, answers: { toolu_03Close: true } },
    });
    expect(done.response.text).toBe('Refunded $25 on order 42.');
    expect(runs).toEqual({ lookup_order: 1, issue_refund: 1, close_account: 1 });
    const last = bodies()[2] as { messages: unknown[] };
    expect(roles(last.messages)).toEqual([
      'user:string',
      'assistant:text+tool_use+tool_use',
      'user:tool_result+tool_result',
      'assistant:tool_use',
      'user:tool_result',
    ]);
  });
});
