import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openaiFixtures } from '../testing/openai-fixtures.js';
import { runToStop, throughJson } from '../testing/run-to-stop.js';
import { createSupportDesk, SUPPORT_INSTRUCTIONS } from '../testing/support-desk.js';
import { createWireServer, type WireServer } from '../testing/wire-server.js';
import { openaiResponses } from './openai-responses-adapter.js';

const fixtures = openaiFixtures(new URL('./__fixtures__/', import.meta.url), 'responses');
const MODEL = 'gpt-5';
const path = '/v1/responses';
const lookupResult = '{"order_id":42,"total":120,"status":"delivered"}';
type Item = Record<string, unknown>;
type Body = Record<string, unknown> & { input: Item[] };

let server: WireServer;
beforeEach(async () => {
  server = await createWireServer();
});
afterEach(() => server.close());

const bodies = () => server.requests.map((request) => request.body as Body);
const output = (name: string) => (fixtures.json(name) as { output: Item[] }).output;
/** An item as a short label: `user`, `reasoning`, `function_call`, `function_call_output`. */
const label = (item: unknown) => {
  const { type, role } = item as { type?: string; role?: string };
  return type === undefined || type === 'message' ? String(role) : type;
};

describe.each([false, true])('openaiResponses generations (stream: %s)', (stream) => {
  const desk = () =>
    createSupportDesk(
      openaiResponses({ model: MODEL, baseURL: `${server.url}/v1`, apiKey: 'test', maxRetries: 0, store: false }),
    );
  const reply = (name: string) => fixtures.reply(name, stream);
  const fixedFields = { store: false, include: ['reasoning.encrypted_content'], ...(stream ? { stream: true } : {}) };

  it('refund: pauses with the whole turn stored, resumes from JSON, sends reasoning, calls and outputs in order', async () => {
    const { agent, runs } = desk();
    server.enqueue(path, reply('refund-tool-calls'), reply('refund-final-text'));

    const paused = await runToStop(agent.handle({ ticketId: 42 }), { stream });
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
      provider: 'openai.responses',
      model: MODEL,
      tool_call_turn_size: 3,
    });
    // Reasoning (with its encrypted content) stays in place; instructions are not an item.
    expect(checkpoint.messages).toEqual([
      { role: 'user', content: 'Resolve support ticket 42' },
      ...output('refund-tool-calls'),
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
    expect(runs).toMatchObject({ lookup_order: 1, issue_refund: 1 });

    const [first = { input: [] }, resumed] = bodies();
    expect(first.instructions).toBe(SUPPORT_INSTRUCTIONS);
    expect(resumed).toEqual({
      model: MODEL,
      instructions: SUPPORT_INSTRUCTIONS,
      input: [
        { role: 'user', content: 'Resolve support ticket 42' },
        ...output('refund-tool-calls'),
        { type: 'function_call_output', call_id: 'call_lookup_1', output: lookupResult },
        { type: 'function_call_output', call_id: 'call_refund_1', output: '{"refunded":25}' },
      ],
      tools: first.tools,
      ...fixedFields,
    });
    expect((first.tools as unknown[])[1]).toEqual({
      type: 'function',
      name: 'issue_refund',
      description: 'Refund part of an order',
      parameters: {
        type: 'object',
        properties: { order_id: { type: 'number' }, amount: { type: 'number' } },
        required: ['order_id', 'amount'],
      },
      strict: false,
    });

    if (stream) {
      const parts = [...paused.parts, ...done.parts];
      expect(parts.flatMap((part) => (part.type === 'tool-call' ? [part.toolCall.id] : []))).toEqual([
        'call_lookup_1',
        'call_refund_1',
      ]);
      const text = done.parts.flatMap((part) => (part.type === 'text-delta' ? [part.text] : [])).join('');
      expect(text).toBe('I refunded $25 on order 42.');
    }
  });

  it('decline: the refund never runs and the model reads the refusal as its output', async () => {
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
    expect(bodies()[1]?.input.slice(4)).toEqual([
      { type: 'function_call_output', call_id: 'call_lookup_1', output: lookupResult },
      { type: 'function_call_output', call_id: 'call_refund_1', output: '{"error":"declined by user"}' },
    ]);
  });

  it('approval gate: pauses before close_account runs, and the gate never reaches the API', async () => {
    const { agent, runs } = desk();
    server.enqueue(path, reply('close-account-tool-call'), reply('closed-final-text'));
    const paused = await runToStop(agent.handle({ ticketId: 7 }), { stream });
    expect(paused.response.inputRequests.map((request) => request.toJSON())).toMatchObject([
      { kind: 'confirm', tool_call_id: 'call_close_1', tool_name: 'close_account', metadata: { approval: true } },
    ]);
    expect(paused.response.checkpoint?.tool_call_turn_size).toBe(2);
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
      expect(Object.keys(body).sort()).toEqual(
        ['input', 'instructions', 'model', 'tools', ...Object.keys(fixedFields)].sort(),
      );
    }
  });

  it('a second pause in a later turn replays earlier items exactly once, reasoning before its calls', async () => {
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
    expect(second.response.checkpoint?.tool_call_turn_size).toBe(2);

    const done = await runToStop(agent.handle({ ticketId: 42 }), {
      stream,
      resume: {
        checkpoint: throughJson(second.response.checkpoint!),
        answers: { call_close_1: true },
      },
    });
    expect(done.response.text).toBe('Order 42 is refunded and account 7 is closed.');
    expect(runs).toEqual({ lookup_order: 1, issue_refund: 1, close_account: 1 });
    const last = bodies()[2]?.input ?? [];
    expect(last.map(label)).toEqual([
      'user',
      'reasoning',
      'function_call',
      'function_call',
      'function_call_output',
      'function_call_output',
      'reasoning',
      'function_call',
      'function_call_output',
    ]);
    expect(last.slice(6, 8)).toEqual(output('close-account-tool-call'));
    expect(last[8]).toEqual({ type: 'function_call_output', call_id: 'call_close_1', output: '{"closed":7}' });
  });
});
