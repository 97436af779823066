import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openaiFixtures } from '../testing/openai-fixtures.js';
import { runToStop, throughJson } from '../testing/run-to-stop.js';
import { createSupportDesk, SUPPORT_INSTRUCTIONS } from '../testing/support-desk.js';
import { createWireServer, type WireServer } from '../testing/wire-server.js';
import { openaiChat } from './openai-chat-adapter.js';

const fixtures = openaiFixtures(new URL('./__fixtures__/', import.meta.url), 'chat');
const MODEL = 'gpt-4.1';
const path = '/v1/chat/completions';
const lookupResult = '{"order_id":42,"total":120,"status":"delivered"}';
type Body = Record<string, unknown> & { messages: Record<string, unknown>[] };

let server: WireServer;
beforeEach(async () => {
  server = await createWireServer();
});
afterEach(() => server.close());

const bodies = () => server.requests.map((request) => request.body as Body);
/** A message as a short label: `developer`, `assistant:lookup_order+issue_refund`, `tool:call_refund_1`. */
const label = (message: Record<string, unknown>) => {
  if (message.role === 'tool') return `tool:${String(message.tool_call_id)}`;
  const calls = message.tool_calls as { function: { name: string } }[] | undefined;
  return calls ? `assistant:${calls.map((call) => call.function.name).join('+')}` : String(message.role);
};

describe.each([false, true])('openaiChat generations (stream: %s)', (stream) => {
  const desk = () =>
    createSupportDesk(openaiChat({ model: MODEL, baseURL: `${server.url}/v1`, apiKey: 'test', maxRetries: 0 }));
  const reply = (name: string) => fixtures.reply(name, stream);
  const streamFields = stream ? { stream: true, stream_options: { include_usage: true } } : {};
  const storedTurn = () =>
    (fixtures.json('refund-tool-calls') as { choices: { message: { tool_calls: unknown } }[] }).choices[0]?.message
      .tool_calls;

  it('refund: pauses on the confirm, resumes from JSON, runs each tool once, sends one tool message per call in order', async () => {
    const { agent, runs } = desk();
    server.enqueue(path, reply('refund-tool-calls'), reply('refund-final-text'));

    const paused = await runToStop(agent.handle({ ticketId: 42 }), { stream });
    expect(paused.response.awaitingInput).toBe(true);
    expect(paused.response.inputRequests.map((request) => request.toJSON())).toEqual([
      {
        kind: 'confirm',
        prompt: 'Refund $25 on order 42?',
        tool_call_id: 'call_refund_1',
        tool_name: 'issue_refund',
        arguments: { order_id: 42, amount: 25 },
      },
    ]);
    expect(runs).toMatchObject({ lookup_order: 1, issue_refund: 0 });
    const checkpoint = throughJson(paused.response.checkpoint!);
    expect(checkpoint).toMatchObject({
      service: 'openai',
      provider: 'openai.chat',
      model: MODEL,
      tool_call_turn_size: 1,
    });
    // The developer message is rendered per call, never stored.
    expect(checkpoint.messages).toEqual([
      { role: 'user', content: 'Resolve support ticket 42' },
      { role: 'assistant', content: null, tool_calls: storedTurn() },
    ]);

    const done = await runToStop(agent.handle({ ticketId: 42 }), {
      stream,
      resume: {
        checkpoint,
        answers: { call_refund_1: true },
      },
    });
    expect(done.response.awaitingInput).toBe(false);
    expect(done.response.text).toBe('I refunded $25 on order 42.');
    expect(done.response.rawFinishReason).toBe('stop');
    expect(runs).toMatchObject({ lookup_order: 1, issue_refund: 1 });

    const [first = { messages: [] }, resumed] = bodies();
    expect(resumed).toEqual({
      model: MODEL,
      messages: [
        { role: 'developer', content: SUPPORT_INSTRUCTIONS },
        { role: 'user', content: 'Resolve support ticket 42' },
        { role: 'assistant', content: null, tool_calls: storedTurn() },
        { role: 'tool', tool_call_id: 'call_lookup_1', content: lookupResult },
        { role: 'tool', tool_call_id: 'call_refund_1', content: '{"refunded":25}' },
      ],
      tools: first.tools,
      ...streamFields,
    });
    expect((first.tools as unknown[])[0]).toEqual({
      type: 'function',
      function: {
        name: 'lookup_order',
        description: 'Find an order by id',
        parameters: { type: 'object', properties: { order_id: { type: 'number' } }, required: ['order_id'] },
      },
    });

    if (stream) {
      const parts = [...paused.parts, ...done.parts];
      const calls = parts.flatMap((part) => (part.type === 'tool-call' ? [part.toolCall.id] : []));
      expect(calls).toEqual(['call_lookup_1', 'call_refund_1']);
      const text = done.parts.flatMap((part) => (part.type === 'text-delta' ? [part.text] : [])).join('');
      expect(text).toBe('I refunded $25 on order 42.');
    }
  });

  it('decline: the refund never runs and the model reads the refusal in its tool message', async () => {
    const { agent, runs } = desk();
    server.enqueue(path, reply('refund-tool-calls'), reply('declined-final-text'));
    const paused = await runToStop(agent.handle({ ticketId: 42 }), { stream });
    const done = await runToStop(agent.handle({ ticketId: 42 }), {
      stream,
      resume: {
        checkpoint: throughJson(paused.response.checkpoint!),
        answers: { call_refund_1: false },
      },
    });
    expect(done.response.text).toBe('The refund was declined, so order 42 is unchanged.');
    expect(runs).toMatchObject({ lookup_order: 1, issue_refund: 0 });
    expect(bodies()[1]?.messages.slice(3)).toEqual([
      { role: 'tool', tool_call_id: 'call_lookup_1', content: lookupResult },
      { role: 'tool', tool_call_id: 'call_refund_1', content: '{"error":"declined by user"}' },
    ]);
  });

  it('approval gate: pauses before close_account runs, and the gate never reaches the API', async () => {
    const { agent, runs } = desk();
    server.enqueue(path, reply('close-account-tool-call'), reply('closed-final-text'));
    const paused = await runToStop(agent.handle({ ticketId: 7 }), { stream });
    expect(paused.response.inputRequests.map((request) => request.toJSON())).toMatchObject([
      { kind: 'confirm', tool_call_id: 'call_close_1', tool_name: 'close_account', metadata: { approval: true } },
    ]);
    expect(runs.close_account).toBe(0);

    await runToStop(agent.handle({ ticketId: 7 }), {
      stream,
      resume: {
        checkpoint: throughJson(paused.response.checkpoint!),
        answers: { call_close_1: true },
      },
    });
    expect(runs.close_account).toBe(1);
    for (const body of bodies()) {
      expect(JSON.stringify(body)).not.toMatch(/approval/i);
      expect(Object.keys(body).sort()).toEqual(['messages', 'model', 'tools', ...Object.keys(streamFields)].sort());
    }
  });

  it('a second pause in a later turn replays earlier messages exactly once', async () => {
    const { agent, runs } = desk();
    server.enqueue(path, reply('refund-tool-calls'), reply('close-account-tool-call'), reply('closed-final-text'));
    const first = await runToStop(agent.handle({ ticketId: 42 }), { stream });
    const second = await runToStop(agent.handle({ ticketId: 42 }), {
      stream,
      resume: {
        checkpoint: throughJson(first.response.checkpoint!),
        answers: { call_refund_1: true },
      },
    });
    expect(second.response.awaitingInput).toBe(true);
    expect(second.response.checkpoint?.messages.map((message) => label(message as Record<string, unknown>))).toEqual([
      'user',
      'assistant:lookup_order+issue_refund',
      'tool:call_lookup_1',
      'tool:call_refund_1',
      'assistant:close_account',
    ]);

    const done = await runToStop(agent.handle({ ticketId: 42 }), {
      stream,
      resume: {
        checkpoint: throughJson(second.response.checkpoint!),
        answers: { call_close_1: true },
      },
    });
    expect(done.response.text).toBe('Order 42 is refunded and account 7 is closed.');
    expect(runs).toEqual({ lookup_order: 1, issue_refund: 1, close_account: 1 });
    expect(bodies()[2]?.messages.map(label)).toEqual([
      'developer',
      'user',
      'assistant:lookup_order+issue_refund',
      'tool:call_lookup_1',
      'tool:call_refund_1',
      'assistant:close_account',
      'tool:call_close_1',
    ]);
  });
});
