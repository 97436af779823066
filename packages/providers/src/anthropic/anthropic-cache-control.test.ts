import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { withCacheBreakpoint } from './anthropic-cache-control.js';

const ephemeral = { type: 'ephemeral' };

function frozenCopy(messages: unknown[]): MessageParam[] {
  return JSON.parse(JSON.stringify(messages)) as MessageParam[];
}

describe('withCacheBreakpoint', () => {
  it('turns string content into one cached text block, leaving the input alone', () => {
    const messages = [{ role: 'user', content: 'Refund order 42' }] as MessageParam[];
    const before = frozenCopy(messages);
    expect(withCacheBreakpoint(messages)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Refund order 42', cache_control: ephemeral }] },
    ]);
    expect(messages).toEqual(before);
  });

  it('marks the last block of a stored assistant message (a pause_turn continuation) on a copy', () => {
    const paused = {
      role: 'assistant',
      content: [
        { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'delays' } },
        { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] },
      ],
    };
    const messages = [{ role: 'user', content: 'Any delays?' }, paused] as MessageParam[];
    const before = frozenCopy(messages);
    const sent = withCacheBreakpoint(messages);
    expect(sent[1]?.content).toEqual([paused.content[0], { ...paused.content[1], cache_control: ephemeral }]);
    expect(sent[0]).toBe(messages[0]);
    expect(messages).toEqual(before);
  });

  it('skips thinking blocks and empty text, which cannot hold a breakpoint', () => {
    const messages = [
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'text', text: '' },
          { type: 'thinking', thinking: 'hm', signature: 'sig' },
          { type: 'redacted_thinking', data: 'xyz' },
        ],
      },
    ] as MessageParam[];
    const content = withCacheBreakpoint(messages)[0]?.content as unknown as Record<string, unknown>[];
    expect(content.map((block) => 'cache_control' in block)).toEqual([true, false, false, false]);
  });

  it('never sends more than four breakpoints: the oldest found in history are dropped', () => {
    const cachedTurn = (text: string) => ({
      role: 'user',
      content: [{ type: 'text', text, cache_control: ephemeral }],
    });
    const messages = [1, 2, 3, 4, 5].map((turn) => cachedTurn(`turn ${turn}`)) as MessageParam[];
    messages.push({ role: 'user', content: 'latest' });
    const before = frozenCopy(messages);
    const sent = withCacheBreakpoint(messages);
    const marked = sent.map((message) =>
      (message.content as unknown as Record<string, unknown>[]).some((block) => block['cache_control'] !== undefined),
    );
    expect(marked).toEqual([false, false, true, true, true, true]);
    expect(messages).toEqual(before);
  });

  it('leaves an empty conversation as it is', () => {
    expect(withCacheBreakpoint([])).toEqual([]);
  });
});
