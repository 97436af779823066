import type { Checkpoint } from '@interlude/core';
import { withCheckpointDefaults } from '@interlude/core/internal';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropicOnWire } from '../testing/anthropic-on-wire.js';
import { anthropicReply } from '../testing/anthropic-replies.js';
import { loadFixtures } from '../testing/fixtures.js';
import { runToStop, throughJson } from '../testing/run-to-stop.js';
import { createSupportDesk } from '../testing/support-desk.js';
import { createWireServer, type WireServer } from '../testing/wire-server.js';
import type { AnthropicOptions } from './anthropic-adapter.js';

const fixtures = loadFixtures(new URL('./__fixtures__/', import.meta.url));
type Message = { role: string; content: Record<string, unknown>[] };
const pausedTurn = fixtures.json<Message & Record<string, unknown>>('web-search-pause-turn');
const webSearch = { type: 'web_search_20250305', name: 'web_search', max_uses: 5 };

let server: WireServer;
beforeEach(async () => {
  server = await createWireServer();
});
afterEach(() => server.close());

describe.each([false, true])('pause_turn continuations (stream: %s)', (stream) => {
  const desk = (options: Partial<AnthropicOptions> = {}) =>
    createSupportDesk(createAnthropicOnWire(server.url, { serverTools: [webSearch], ...options }));
  const reply = (name: string) => anthropicReply(fixtures.json(name), { stream });
  const pauses = (count: number) => Array.from({ length: count }, () => reply('web-search-pause-turn'));
  const body = (index: number) => (server.requests[index]?.body ?? {}) as { messages: Message[]; tools: unknown[] };
  const sentMessages = (index: number) => body(index).messages;
  const generate = async (agent: ReturnType<typeof desk>['agent']) =>
    (await runToStop(agent.handle({ ticketId: 9 }), { stream })).response;

  it('continues a paused turn: the paused content goes back unchanged as the last message, nothing added', async () => {
    server.enqueue('/v1/messages', reply('web-search-pause-turn'), reply('web-search-end-turn'));
    const { response, parts } = await runToStop(desk().agent.handle({ ticketId: 9 }), { stream });

    expect(server.requests).toHaveLength(2);
    expect(sentMessages(1)).toEqual([
      { role: 'user', content: 'Resolve support ticket 9' },
      { role: 'assistant', content: pausedTurn.content },
    ]);
    expect(response.awaitingInput).toBe(false);
    expect(response.rawFinishReason).toBe('end_turn');
    // The turn's text is every continuation's, as the stream delivered it, not only the last one's.
    expect(response.text).toBe(
      "Let me search for the carrier's delay notice.ParcelCo reports delays of two days this week.",
    );
    if (stream)
      expect(parts.flatMap((part) => (part.type === 'text-delta' ? [part.text] : [])).join('')).toBe(response.text);
    expect(response.continuationsExceeded).toBe(false);
    expect(body(0).tools.at(-1)).toEqual(webSearch);
  });

  it('follows at most 10 continuations: 11 pause_turn answers in a row are 11 requests and an end that says the turn is unfinished', async () => {
    server.enqueue('/v1/messages', ...pauses(11));
    server.fallback('/v1/messages', {
      json: { type: 'error', error: { type: 'api_error', message: 'one too many' } },
      status: 500,
    });
    const response = await generate(desk().agent);

    expect(server.requests).toHaveLength(11);
    expect(server.pending()).toEqual({});
    expect(response.awaitingInput).toBe(false);
    expect(response.continuationsExceeded).toBe(true);
    expect(response.text).toBe("Let me search for the carrier's delay notice.".repeat(11));
    expect(response.finishReason).toBe('pause');
    expect(response.rawFinishReason).toBe('pause_turn');
    expect(sentMessages(10)).toHaveLength(11);
    expect(sentMessages(10).slice(1)).toEqual(
      Array.from({ length: 10 }, () => ({ role: 'assistant', content: pausedTurn.content })),
    );
  });

  it('resets the count after a client tool turn', async () => {
    server.enqueue(
      '/v1/messages',
      ...pauses(10),
      reply('thinking-tool-use'),
      ...pauses(10),
      reply('web-search-end-turn'),
    );
    const { agent, runs } = desk();
    const response = await generate(agent);

    expect(server.requests).toHaveLength(22);
    expect(runs.lookup_order).toBe(1);
    expect(response.rawFinishReason).toBe('end_turn');
    expect(sentMessages(11).at(-1)).toMatchObject({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_04Lookup' }],
    });
  });

  it('with cache: true, caches the stored assistant message on the wire and leaves the history unchanged', async () => {
    server.enqueue('/v1/messages', reply('web-search-pause-turn'), reply('web-search-end-turn'));
    const response = await generate(desk({ cache: true }).agent);

    const ephemeral = { type: 'ephemeral' };
    expect(sentMessages(0)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Resolve support ticket 9', cache_control: ephemeral }] },
    ]);
    const continued = sentMessages(1);
    expect(continued[0]).toEqual({ role: 'user', content: 'Resolve support ticket 9' });
    expect(continued[1]?.content).toEqual([
      ...pausedTurn.content.slice(0, -1),
      { ...pausedTurn.content.at(-1), cache_control: ephemeral },
    ]);
    expect(response.messages.slice(0, 2)).toEqual([
      { role: 'user', content: 'Resolve support ticket 9' },
      { role: 'assistant', content: pausedTurn.content },
    ]);
    expect(JSON.stringify(response.messages)).not.toContain('cache_control');
  });

  it('a tool turn after a continuation pauses and resumes with the continued content in place', async () => {
    server.enqueue('/v1/messages', reply('web-search-pause-turn'), reply('refund-tool-use'), reply('refund-done'));
    const { agent, runs } = desk();
    const paused = await runToStop(agent.handle({ ticketId: 9 }), { stream });
    const checkpoint = throughJson(paused.response.checkpoint as Checkpoint);
    expect(withCheckpointDefaults(checkpoint).tool_call_turn_size).toBe(1);
    expect(checkpoint.messages.map((message) => (message as Message).role)).toEqual(['user', 'assistant', 'assistant']);

    const done = await runToStop(agent.handle({ ticketId: 9 }), {
      stream,
      resume: { checkpoint, answers: { toolu_02Refund: true } },
    });
    expect(done.response.text).toBe('Refunded $25 on order 42.');
    expect(runs).toMatchObject({ lookup_order: 1, issue_refund: 1 });
    const resumed = sentMessages(2);
    expect(resumed.slice(0, 3)).toEqual([
      { role: 'user', content: 'Resolve support ticket 9' },
      { role: 'assistant', content: pausedTurn.content },
      { role: 'assistant', content: fixtures.json<Message>('refund-tool-use').content },
    ]);
    expect(resumed[3]?.content.map((block) => block['tool_use_id'])).toEqual(['toolu_01Lookup', 'toolu_02Refund']);
  });
});
