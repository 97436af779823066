import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { openaiChat } from '../openai-chat/index.js';
import { startScriptedModel } from './scripted-model.js';
import { createSupportDesk } from './support-desk.js';
import type { WireServer } from './wire-server.js';

let model: WireServer | undefined;
afterEach(async () => {
  await model?.close();
});

const script = [
  { text: 'Checking.', toolUses: [{ id: 'call_1', name: 'lookup_order', input: { order_id: 42 } }] },
  (conversation: { results: Map<string, string> }) => ({ text: `Order: ${conversation.results.get('lookup_order')}` }),
];

describe('the scripted model in Chat Completions format', () => {
  it('answers each request with the turn its conversation has reached, streamed or not, from any client', async () => {
    model = await startScriptedModel(script, { format: 'openai-chat' });
    // Two clients, as two processes would be: the second continues what the first began.
    const first = new OpenAI({ apiKey: 'fake', baseURL: `${model.url}/v1`, maxRetries: 0 });
    const second = new OpenAI({ apiKey: 'fake', baseURL: `${model.url}/v1`, maxRetries: 0 });
    const user = { role: 'user' as const, content: 'Where is order 42?' };
    const turn = await first.chat.completions.create({ model: 'm', messages: [user] });
    expect(turn.choices[0]?.finish_reason).toBe('tool_calls');
    expect(turn.choices[0]?.message).toMatchObject({
      content: 'Checking.',
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'lookup_order', arguments: '{"order_id":42}' } },
      ],
    });
    const assistant = turn.choices[0]?.message;
    if (assistant === undefined) throw new Error('no message');
    const stream = await second.chat.completions.create({
      model: 'm',
      stream: true,
      stream_options: { include_usage: true },
      messages: [user, assistant, { role: 'tool', tool_call_id: 'call_1', content: 'shipped' }],
    });
    let text = '';
    let finishReason: string | null | undefined;
    let usage: unknown;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finishReason = chunk.choices[0]?.finish_reason ?? finishReason;
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe('Order: shipped');
    expect(finishReason).toBe('stop');
    expect(usage).toMatchObject({ total_tokens: 220 });
  });

  it('runs a generation through openaiChat(): pauses on the refund and resumes to the final answer', async () => {
    model = await startScriptedModel(
      [
        {
          toolUses: [
            { id: 'call_lookup', name: 'lookup_order', input: { order_id: 42 } },
            { id: 'call_refund', name: 'issue_refund', input: { order_id: 42, amount: 30 } },
          ],
        },
        (conversation) => ({ text: `Done: ${conversation.results.get('issue_refund')}` }),
      ],
      { format: 'openai-chat' },
    );
    const desk = createSupportDesk(
      openaiChat({ model: 'gpt-4.1', baseURL: `${model.url}/v1`, apiKey: 'fake', maxRetries: 0 }),
    );
    const paused = await desk.agent.handle({ ticketId: 42 }).generateNow();
    expect(paused.inputRequests.map((question) => question.toolCallId)).toEqual(['call_refund']);
    const done = await desk.runtime.answer(paused.generationId, { call_refund: true });
    expect(done.text).toBe('Done: {"refunded":30}');
    expect(desk.runs).toEqual({ lookup_order: 1, issue_refund: 1, close_account: 0 });
    await desk.runtime.close();
  });

  it('refuses a request past the end of its script with a 400 that says so', async () => {
    model = await startScriptedModel([{ text: 'Only turn.' }], { format: 'openai-chat' });
    const client = new OpenAI({ apiKey: 'fake', baseURL: `${model.url}/v1`, maxRetries: 0 });
    const messages = [
      { role: 'user' as const, content: 'Hi' },
      { role: 'assistant' as const, content: 'Only turn.' },
    ];
    await expect(client.chat.completions.create({ model: 'm', messages })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('the script has 1 turns; this request asks for turn 2'),
    });
  });

  it('refuses an unknown format before it listens', async () => {
    const format = 'openai-responses' as 'anthropic';
    await expect(startScriptedModel([], { format })).rejects.toMatchObject({
      code: 'unknown_format',
      message: expect.stringContaining('format must be one of anthropic, openai-chat, not openai-responses'),
    });
  });
});
