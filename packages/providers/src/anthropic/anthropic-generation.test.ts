import type { Checkpoint } from '@interlude/core';
import { withCheckpointDefaults } from '@interlude/core/internal';
import { expect } from 'vitest';
import { describeAdapterGenerationSuite } from '../testing/adapter-generation-suite.js';
import { anthropicReply } from '../testing/anthropic-replies.js';
import { loadFixtures } from '../testing/fixtures.js';
import { SUPPORT_INSTRUCTIONS } from '../testing/support-desk.js';
import type { WireReply } from '../testing/wire-server.js';
import { anthropic } from './anthropic-adapter.js';

const fixtures = loadFixtures(new URL('./__fixtures__/', import.meta.url));
const MODEL = 'claude-sonnet-5-5';
type Message = { content: Record<string, unknown>[] } & Record<string, unknown>;
const refundTurn = fixtures.json<Message>('refund-tool-use');

/** A message as `role:block+block`, `string` for plain text content. */
const roles = (messages: unknown[]) =>
  messages.map((message) => {
    const { role, content } = message as { role: string; content: unknown };
    const blocks = Array.isArray(content) ? content.map((block) => (block as { type: string }).type) : ['string'];
    return `${role}:${blocks.join('+')}`;
  });

describeAdapterGenerationSuite({
  name: 'anthropic',
  build: (serverUrl) => anthropic({ model: MODEL, baseURL: serverUrl, apiKey: 'test', maxRetries: 0 }),
  wire: {
    path: '/v1/messages',
    reply: (name, stream): WireReply =>
      stream && name === 'refund-tool-use'
        ? { sse: fixtures.chunks(name), namedEvents: true } // the recorded stream
        : anthropicReply(fixtures.json(name), { stream }),
    refundCalls: 'refund-tool-use',
    closeCall: 'close-account-tool-use',
    refundDone: 'refund-done',
    refundDeclined: 'refund-declined',
    closeDone: 'refund-done',
    ids: { lookup: 'toolu_01Lookup', refund: 'toolu_02Refund', close: 'toolu_03Close' },
    refundedText: 'Refunded $25 on order 42.',
    closedText: 'Refunded $25 on order 42.',
  },
  checks: {
    titles: {
      refund: 'refund: pauses on the confirm, resumes from JSON, runs each tool once, sends both results in order',
      decline: 'decline: the refund never runs and the model reads the refusal',
      secondPause: 'a second pause in a later turn replays earlier messages exactly once',
    },
    refundPaused(paused, checkpoint) {
      expect(paused.response.awaitingInput).toBe(true);
      expect(checkpoint).toMatchObject({ service: 'anthropic', provider: 'anthropic.messages', model: MODEL });
      expect(checkpoint.messages).toEqual([
        { role: 'user', content: 'Resolve support ticket 42' },
        { role: 'assistant', content: refundTurn.content },
      ]);
      expect(withCheckpointDefaults(checkpoint).tool_call_turn_size).toBe(1);
    },
    refundDone({ paused, done }, { stream, server, bodies }) {
      expect(done.response.rawFinishReason).toBe('end_turn');
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
        tools: first['tools'],
        ...(stream ? { stream: true } : {}),
      });
      expect((first['tools'] as { name: string }[]).map((tool) => tool.name)).toEqual([
        'lookup_order',
        'issue_refund',
        'close_account',
      ]);
      expect((first['tools'] as unknown[])[0]).toEqual({
        name: 'lookup_order',
        description: 'Find an order by id',
        input_schema: {
          type: 'object',
          properties: { order_id: { type: 'number' } },
          required: ['order_id'],
        },
      });

      if (stream) {
        const results = [...paused.parts, ...done.parts].filter((part) => part.type === 'tool-result');
        expect(results.map((part) => part.toolCallId)).toEqual(['toolu_01Lookup', 'toolu_02Refund']);
      }
    },
    declineDone({ bodies }) {
      const resumed = bodies()[1] as { messages: { content: unknown }[] };
      expect(resumed.messages[2]?.content).toEqual([
        {
          type: 'tool_result',
          tool_use_id: 'toolu_01Lookup',
          content: '{"order_id":42,"total":120,"status":"delivered"}',
        },
        { type: 'tool_result', tool_use_id: 'toolu_02Refund', content: '{"error":"declined by user"}', is_error: true },
      ]);
    },
    gateLeak: /approval|requiresApproval|requires_approval/i,
    sentKeys: (stream) => ['max_tokens', 'messages', 'model', 'system', 'tools', ...(stream ? ['stream'] : [])],
    secondPaused(second) {
      expect(roles((second.response.checkpoint as Checkpoint).messages)).toEqual([
        'user:string',
        'assistant:text+tool_use+tool_use',
        'user:tool_result+tool_result',
        'assistant:tool_use',
      ]);
    },
    secondDone({ bodies }) {
      const last = bodies()[2] as { messages: unknown[] };
      expect(roles(last.messages)).toEqual([
        'user:string',
        'assistant:text+tool_use+tool_use',
        'user:tool_result+tool_result',
        'assistant:tool_use',
        'user:tool_result',
      ]);
    },
  },
});
