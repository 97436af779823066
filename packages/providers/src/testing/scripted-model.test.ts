import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedModel } from './scripted-model.js';
import type { WireServer } from './wire-server.js';

let model: WireServer | undefined;
afterEach(async () => {
  await model?.close();
});

const script = [
  { text: 'Checking.', toolUses: [{ id: 'toolu_1', name: 'lookup_order', input: { order_id: 42 } }] },
  (conversation: { results: Map<string, string> }) => ({ text: `Order: ${conversation.results.get('lookup_order')}` }),
];

describe('the scripted model', () => {
  it('answers each request with the turn its conversation has reached, streamed or not, from any client', async () => {
    model = await startScriptedModel(script);
    // Two clients, as two processes would be: the second continues what the first began.
    const first = new Anthropic({ apiKey: 'fake', baseURL: model.url, maxRetries: 0 });
    const second = new Anthropic({ apiKey: 'fake', baseURL: model.url, maxRetries: 0 });
    const user = { role: 'user' as const, content: 'Where is order 42?' };
    const turn = await first.messages.create({ model: 'm', max_tokens: 100, messages: [user] });
    expect(turn.stop_reason).toBe('tool_use');
    expect(turn.content).toMatchObject([
      { type: 'text', text: 'Checking.' },
      { type: 'tool_use', id: 'toolu_1', name: 'lookup_order', input: { order_id: 42 } },
    ]);
    const result = {
      role: 'user' as const,
      content: [{ type: 'tool_result' as const, tool_use_id: 'toolu_1', content: 'shipped' }],
    };
    const final = await second.messages
      .stream({ model: 'm', max_tokens: 100, messages: [user, { role: 'assistant', content: turn.content }, result] })
      .finalMessage();
    expect(final.stop_reason).toBe('end_turn');
    expect(final.content).toMatchObject([{ type: 'text', text: 'Order: shipped' }]);
  });

  it('refuses a request past the end of its script with a 400 that says so', async () => {
    model = await startScriptedModel([{ text: 'Only turn.' }]);
    const client = new Anthropic({ apiKey: 'fake', baseURL: model.url, maxRetries: 0 });
    const messages = [
      { role: 'user' as const, content: 'Hi' },
      { role: 'assistant' as const, content: 'Only turn.' },
      { role: 'user' as const, content: [{ type: 'tool_result' as const, tool_use_id: 'x', content: 'y' }] },
    ];
    await expect(client.messages.create({ model: 'm', max_tokens: 100, messages })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('the script has 1 turns; this request asks for turn 2'),
    });
  });
});
