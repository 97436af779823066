import { readFileSync } from 'node:fs';
import Anthropic from '@anthropic-ai/sdk';
import type { ModelRequest, ModelStreamPart } from '@interlude/core/provider';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropicOnWire } from '../testing/anthropic-on-wire.js';
import { anthropicReply } from '../testing/anthropic-replies.js';
import { loadFixtures } from '../testing/fixtures.js';
import { createWireServer, type WireServer } from '../testing/wire-server.js';
import { type AnthropicAdapter, anthropic } from './anthropic-adapter.js';

const fixtures = loadFixtures(new URL('./__fixtures__/', import.meta.url));
const tools = [
  {
    name: 'lookup_order',
    description: 'Look an order up',
    inputSchema: { type: 'object', properties: { order_id: { type: 'number' } }, required: ['order_id'] },
  },
];

let server: WireServer;
let adapter: AnthropicAdapter;

beforeEach(async () => {
  server = await createWireServer();
  adapter = createAnthropicOnWire(server.url);
});
afterEach(() => server.close());

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    instructions: 'You resolve support tickets.',
    messages: adapter.userMessages('Refund order 42'),
    tools,
    toolChoice: undefined,
    ...overrides,
  };
}

describe('anthropic adapter on the wire', () => {
  it('sends the instructions as system, never in messages, with tools and the mapped tool choice', async () => {
    server.enqueue('/v1/messages', { json: fixtures.json('refund-done') });
    await adapter.call(request({ toolChoice: { type: 'tool', name: 'lookup_order' } }), { stream: false });
    expect(server.requests[0]?.body).toEqual({
      model: 'claude-sonnet-5-5',
      max_tokens: 4096,
      system: 'You resolve support tickets.',
      messages: [{ role: 'user', content: 'Refund order 42' }],
      tools: [
        {
          name: 'lookup_order',
          description: 'Look an order up',
          input_schema: { type: 'object', properties: { order_id: { type: 'number' } }, required: ['order_id'] },
        },
      ],
      tool_choice: { type: 'tool', name: 'lookup_order' },
    });
  });

  it('reads a tool-use turn from JSON: calls in order, text, stop reason, usage, stored verbatim', async () => {
    const fixture = fixtures.json<{ content: unknown[] }>('refund-tool-use');
    server.enqueue('/v1/messages', { json: fixture });
    const response = await adapter.call(request(), { stream: false });
    expect(response.toolCalls).toEqual([
      { id: 'toolu_01Lookup', name: 'lookup_order', arguments: { order_id: 42 } },
      { id: 'toolu_02Refund', name: 'issue_refund', arguments: { order_id: 42, amount: 25 } },
    ]);
    expect(response.text).toBe("I'll look up order 42 and refund it.");
    expect(response.finishReason).toBe('tool-calls');
    expect(response.rawFinishReason).toBe('tool_use');
    expect(response.continuation).toBeUndefined();
    expect(response.responseId).toBe('msg_01RefundToolUse');
    expect(response.usage).toEqual({ inputTokens: 412, outputTokens: 96, cacheReadTokens: 0, cacheWriteTokens: 0 });
    expect(response.messages).toEqual([{ role: 'assistant', content: fixture.content }]);
    expect(adapter.toolCallsIn(response.messages)).toEqual(response.toolCalls);
  });

  it('streams a recorded SSE turn: text deltas as they come, each tool call once, same result as JSON', async () => {
    server.enqueue('/v1/messages', { json: fixtures.json('refund-tool-use') });
    server.enqueue('/v1/messages', { sse: fixtures.chunks('refund-tool-use'), namedEvents: true });
    const fromJson = await adapter.call(request(), { stream: false });
    const parts: ModelStreamPart[] = [];
    const streamed = await adapter.call(request(), { stream: true, onPart: (part) => parts.push(part) });

    expect(parts).toEqual([
      { type: 'text-delta', text: "I'll look up order 42" },
      { type: 'text-delta', text: ' and refund it.' },
      { type: 'tool-call', toolCall: { id: 'toolu_01Lookup', name: 'lookup_order', arguments: { order_id: 42 } } },
      {
        type: 'tool-call',
        toolCall: { id: 'toolu_02Refund', name: 'issue_refund', arguments: { order_id: 42, amount: 25 } },
      },
    ]);
    expect(streamed.messages).toEqual(fromJson.messages);
    expect(streamed.toolCalls).toEqual(fromJson.toolCalls);
    expect(streamed.finishReason).toBe('tool-calls');
    expect(server.requests[1]?.body).toMatchObject({ stream: true });
  });

  it.each([false, true])(
    'keeps thinking blocks verbatim and sends them back unchanged (stream: %s)',
    async (stream) => {
      const fixture = fixtures.json<{ content: unknown[] }>('thinking-tool-use');
      server.enqueue(
        '/v1/messages',
        stream ? { sse: fixtures.chunks('thinking-tool-use'), namedEvents: true } : { json: fixture },
        { json: fixtures.json('refund-done') },
      );
      const first = await adapter.call(request(), { stream });
      expect(first.messages).toEqual([{ role: 'assistant', content: fixture.content }]);

      const stored = JSON.parse(JSON.stringify(first.messages)) as unknown[];
      const results = adapter.toolResultMessages([
        {
          toolCallId: 'toolu_04Lookup',
          toolName: 'lookup_order',
          result: { status: 'shipped' },
          output: '{"status":"shipped"}',
          isError: false,
        },
      ]);
      await adapter.call(request({ messages: [...adapter.userMessages('Refund order 42'), ...stored, ...results] }), {
        stream: false,
      });
      const sent = server.requests[1]?.body as { messages: unknown[] };
      expect(sent.messages[1]).toEqual({ role: 'assistant', content: fixture.content });
      expect(sent.messages[2]).toEqual({
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_04Lookup', content: '{"status":"shipped"}' }],
      });
    },
  );

  it.each([false, true])('answers pause_turn as a continuation, never final (stream: %s)', async (stream) => {
    const fixture = fixtures.json<Record<string, unknown>>('web-search-pause-turn');
    server.enqueue('/v1/messages', anthropicReply(fixture, { stream }));
    const response = await adapter.call(request(), { stream });
    expect(response.continuation).toBe(true);
    expect(response.finishReason).toBe('pause');
    expect(response.rawFinishReason).toBe('pause_turn');
    expect(response.toolCalls).toEqual([]);
    expect(response.messages).toEqual([{ role: 'assistant', content: fixture['content'] }]);
  });

  it.each([
    ['mcp-tool-use-stream', 'mcp_tool_use', { input: { order_id: 42 } }],
    ['compaction-stream', 'compaction', { content: expect.stringContaining('## Summary of the conversation') }],
  ])(
    'stores a streamed %s block the SDK does not assemble as it streamed, and sends it back so',
    async (name, type, expected) => {
      const raw = readFileSync(
        new URL(`../corpus/__fixtures__/recorded/anthropic/${name}/response.sse`, import.meta.url),
        'utf8',
      );
      server.enqueue('/v1/messages', { raw, contentType: 'text/event-stream' }, { json: fixtures.json('refund-done') });
      const streamed = await adapter.call(request(), { stream: true });
      const content = (streamed.messages[0] as { content: Record<string, unknown>[] }).content;
      expect(content.find((block) => block['type'] === type)).toMatchObject(expected);
      const history = [
        ...adapter.userMessages('Refund order 42'),
        ...streamed.messages,
        { role: 'user', content: 'thanks' },
      ];
      await adapter.call(request({ messages: history }), { stream: false });
      const sent = server.requests[1]?.body as { messages: { content: unknown }[] };
      expect(sent.messages[1]?.content).toEqual(content);
    },
  );

  it('passes server tools through as written, after the client tools', async () => {
    const withSearch = createAnthropicOnWire(server.url, {
      serverTools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 3 }],
    });
    server.enqueue('/v1/messages', { json: fixtures.json('refund-done') });
    await withSearch.call(request(), { stream: false });
    const body = server.requests[0]?.body as { tools: { name: string }[] };
    expect(body.tools.map((tool) => tool.name)).toEqual(['lookup_order', 'web_search']);
    expect(body.tools[1]).toEqual({ type: 'web_search_20250305', name: 'web_search', max_uses: 3 });
  });

  it.each([false, true])(
    'passes the code-execution container id back on the next call (stream: %s)',
    async (stream) => {
      server.enqueue('/v1/messages', anthropicReply(fixtures.json('code-execution-pause-turn'), { stream }), {
        json: fixtures.json('refund-done'),
      });
      const paused = await adapter.call(request(), { stream });
      const stored = JSON.parse(JSON.stringify(paused.messages)) as unknown[];
      await adapter.call(request({ messages: [...adapter.userMessages('Count refunds'), ...stored] }), {
        stream: false,
      });
      const sent = server.requests[1]?.body as { container?: string; messages: Record<string, unknown>[] };
      expect(sent.container).toBe('container_011CZx8b3F2qQ');
      // The note stays in the checkpoint; the API only ever sees role and content.
      expect(sent.messages[1]).toEqual({
        role: 'assistant',
        content: fixtures.json<{ content: unknown }>('code-execution-pause-turn').content,
      });
    },
  );

  it('leaves an expired container out, so the API starts a fresh one instead of failing', async () => {
    server.enqueue('/v1/messages', { json: fixtures.json('refund-done') });
    const stale = {
      role: 'assistant',
      content: [{ type: 'text', text: 'ran it' }],
      container: { id: 'container_old', expires_at: '2020-01-01T00:00:00Z' },
    };
    await adapter.call(
      request({ messages: [...adapter.userMessages('Count refunds'), stale, { role: 'user', content: 'again' }] }),
      {
        stream: false,
      },
    );
    expect(server.requests[0]?.body).not.toHaveProperty('container');
  });

  it('judges container expiry by the clock it is given, so a recorded container replays the same way any day', async () => {
    const container = { id: 'container_recorded', expires_at: '2026-02-10T16:30:00Z' };
    const history = [
      ...adapter.userMessages('Count refunds'),
      { role: 'assistant', content: [{ type: 'text', text: 'ran it' }], container },
      { role: 'user', content: 'again' },
    ];
    const at = (iso: string) => createAnthropicOnWire(server.url, { now: () => new Date(iso) });
    server.enqueue('/v1/messages', { json: fixtures.json('refund-done') }, { json: fixtures.json('refund-done') });
    await at('2026-02-10T16:00:00Z').call(request({ messages: history }), { stream: false });
    await at('2026-02-10T17:00:00Z').call(request({ messages: history }), { stream: false });
    expect(server.requests[0]?.body).toMatchObject({ container: 'container_recorded' });
    expect(server.requests[1]?.body).not.toHaveProperty('container');
  });

  it('with cache: true marks the last block of a stored assistant message on the wire, not in the history', async () => {
    const cached = createAnthropicOnWire(server.url, { cache: true });
    const paused = fixtures.json<{ content: Record<string, unknown>[] }>('web-search-pause-turn');
    const history = [...cached.userMessages('Any delays?'), { role: 'assistant', content: paused.content }];
    const before = JSON.stringify(history);
    server.enqueue('/v1/messages', { json: fixtures.json('web-search-end-turn') });
    await cached.call(request({ messages: history }), { stream: false });

    const sent = server.requests[0]?.body as { messages: { content: Record<string, unknown>[] }[] };
    const lastBlocks = sent.messages[1]?.content ?? [];
    expect(lastBlocks.at(-1)).toEqual({ ...paused.content.at(-1), cache_control: { type: 'ephemeral' } });
    expect(lastBlocks.slice(0, -1)).toEqual(paused.content.slice(0, -1));
    expect(sent.messages[0]).toEqual({ role: 'user', content: 'Any delays?' });
    expect(JSON.stringify(history)).toBe(before);
  });

  it('uses a client it is given (how an AnthropicBedrock client plugs in)', async () => {
    const client = new Anthropic({
      apiKey: 'test',
      baseURL: server.url,
      maxRetries: 0,
      defaultHeaders: { 'x-support-desk': 'eu' },
    });
    const withClient = anthropic({ model: 'claude-sonnet-5-5', client });
    server.enqueue('/v1/messages', { json: fixtures.json('refund-done') });
    const response = await withClient.call(request(), { stream: false });
    expect(response.text).toBe('Refunded $25 on order 42.');
    expect(server.requests[0]?.headers['x-support-desk']).toBe('eu');
  });
});
