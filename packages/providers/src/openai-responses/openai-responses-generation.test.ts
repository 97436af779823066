import { expect } from 'vitest';
import { describeAdapterGenerationSuite } from '../testing/adapter-generation-suite.js';
import { openaiFixtures } from '../testing/openai-fixtures.js';
import { createOpenAIGenerationWire } from '../testing/openai-generation-wire.js';
import { SUPPORT_INSTRUCTIONS } from '../testing/support-desk.js';
import { openaiResponses } from './openai-responses-adapter.js';

const fixtures = openaiFixtures(new URL('./__fixtures__/', import.meta.url), 'responses');
const MODEL = 'gpt-5';
const lookupResult = '{"order_id":42,"total":120,"status":"delivered"}';
type Item = Record<string, unknown>;
type Body = Record<string, unknown> & { input: Item[] };

const output = (name: string) => (fixtures.json(name) as { output: Item[] }).output;
/** An item as a short label: `user`, `reasoning`, `function_call`, `function_call_output`. */
const label = (item: unknown) => {
  const { type, role } = item as { type?: string; role?: string };
  return type === undefined || type === 'message' ? String(role) : type;
};
const fixedFields = (stream: boolean) => ({
  store: false,
  include: ['reasoning.encrypted_content'],
  ...(stream ? { stream: true } : {}),
});

describeAdapterGenerationSuite({
  name: 'openaiResponses',
  build: (serverUrl) =>
    openaiResponses({ model: MODEL, baseURL: `${serverUrl}/v1`, apiKey: 'test', maxRetries: 0, store: false }),
  wire: createOpenAIGenerationWire(fixtures, '/v1/responses'),
  checks: {
    titles: {
      refund:
        'refund: pauses with the whole turn stored, resumes from JSON, sends reasoning, calls and outputs in order',
      decline: 'decline: the refund never runs and the model reads the refusal as its output',
      secondPause: 'a second pause in a later turn replays earlier items exactly once, reasoning before its calls',
    },
    refundPaused(_paused, checkpoint) {
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
    },
    refundDone(_stops, { stream, bodies }) {
      const [first = { input: [] }, resumed] = bodies() as Body[];
      expect(first['instructions']).toBe(SUPPORT_INSTRUCTIONS);
      expect(resumed).toEqual({
        model: MODEL,
        instructions: SUPPORT_INSTRUCTIONS,
        input: [
          { role: 'user', content: 'Resolve support ticket 42' },
          ...output('refund-tool-calls'),
          { type: 'function_call_output', call_id: 'call_lookup_1', output: lookupResult },
          { type: 'function_call_output', call_id: 'call_refund_1', output: '{"refunded":25}' },
        ],
        tools: first['tools'],
        ...fixedFields(stream),
      });
      expect((first['tools'] as unknown[])[1]).toEqual({
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
    },
    declineDone({ bodies }) {
      expect((bodies() as Body[])[1]?.input.slice(4)).toEqual([
        { type: 'function_call_output', call_id: 'call_lookup_1', output: lookupResult },
        { type: 'function_call_output', call_id: 'call_refund_1', output: '{"error":"declined by user"}' },
      ]);
    },
    gatePaused(paused) {
      expect(paused.response.checkpoint?.tool_call_turn_size).toBe(2);
    },
    sentKeys: (stream) => ['input', 'instructions', 'model', 'tools', ...Object.keys(fixedFields(stream))],
    secondPaused(second) {
      expect(second.response.checkpoint?.tool_call_turn_size).toBe(2);
    },
    secondDone({ bodies }) {
      const last = (bodies() as Body[])[2]?.input ?? [];
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
    },
  },
});
