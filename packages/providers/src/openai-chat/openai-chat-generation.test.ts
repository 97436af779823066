import { withCheckpointDefaults } from '@interlude/core/internal';
import { expect } from 'vitest';
import { describeAdapterGenerationSuite } from '../testing/adapter-generation-suite.js';
import { openaiFixtures } from '../testing/openai-fixtures.js';
import { createOpenAIGenerationWire } from '../testing/openai-generation-wire.js';
import { SUPPORT_INSTRUCTIONS } from '../testing/support-desk.js';
import { openaiChat } from './openai-chat-adapter.js';

const fixtures = openaiFixtures(new URL('./__fixtures__/', import.meta.url), 'chat');
const MODEL = 'gpt-4.1';
const lookupResult = '{"order_id":42,"total":120,"status":"delivered"}';
type Body = Record<string, unknown> & { messages: Record<string, unknown>[] };

/** A message as a short label: `developer`, `assistant:lookup_order+issue_refund`, `tool:call_refund_1`. */
const label = (message: Record<string, unknown>) => {
  if (message['role'] === 'tool') return `tool:${String(message['tool_call_id'])}`;
  const calls = message['tool_calls'] as { function: { name: string } }[] | undefined;
  return calls ? `assistant:${calls.map((call) => call.function.name).join('+')}` : String(message['role']);
};
const streamFields = (stream: boolean) => (stream ? { stream: true, stream_options: { include_usage: true } } : {});
const storedTurn = () =>
  (fixtures.json('refund-tool-calls') as { choices: { message: { tool_calls: unknown } }[] }).choices[0]?.message
    .tool_calls;

describeAdapterGenerationSuite({
  name: 'openaiChat',
  build: (serverUrl) => openaiChat({ model: MODEL, baseURL: `${serverUrl}/v1`, apiKey: 'test', maxRetries: 0 }),
  wire: createOpenAIGenerationWire(fixtures, '/v1/chat/completions'),
  checks: {
    titles: {
      refund:
        'refund: pauses on the confirm, resumes from JSON, runs each tool once, sends one tool message per call in order',
      decline: 'decline: the refund never runs and the model reads the refusal in its tool message',
      secondPause: 'a second pause in a later turn replays earlier messages exactly once',
    },
    refundPaused(paused, checkpoint) {
      expect(paused.response.awaitingInput).toBe(true);
      expect(withCheckpointDefaults(checkpoint)).toMatchObject({
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
    },
    refundDone({ done }, { stream, bodies }) {
      expect(done.response.rawFinishReason).toBe('stop');
      const [first = { messages: [] }, resumed] = bodies() as Body[];
      expect(resumed).toEqual({
        model: MODEL,
        messages: [
          { role: 'developer', content: SUPPORT_INSTRUCTIONS },
          { role: 'user', content: 'Resolve support ticket 42' },
          { role: 'assistant', content: null, tool_calls: storedTurn() },
          { role: 'tool', tool_call_id: 'call_lookup_1', content: lookupResult },
          { role: 'tool', tool_call_id: 'call_refund_1', content: '{"refunded":25}' },
        ],
        tools: first['tools'],
        ...streamFields(stream),
      });
      expect((first['tools'] as unknown[])[0]).toEqual({
        type: 'function',
        function: {
          name: 'lookup_order',
          description: 'Find an order by id',
          parameters: { type: 'object', properties: { order_id: { type: 'number' } }, required: ['order_id'] },
        },
      });
    },
    declineDone({ bodies }) {
      expect((bodies() as Body[])[1]?.messages.slice(3)).toEqual([
        { role: 'tool', tool_call_id: 'call_lookup_1', content: lookupResult },
        { role: 'tool', tool_call_id: 'call_refund_1', content: '{"error":"declined by user"}' },
      ]);
    },
    sentKeys: (stream) => ['messages', 'model', 'tools', ...Object.keys(streamFields(stream))],
    secondPaused(second) {
      expect(second.response.checkpoint?.messages.map((message) => label(message as Record<string, unknown>))).toEqual([
        'user',
        'assistant:lookup_order+issue_refund',
        'tool:call_lookup_1',
        'tool:call_refund_1',
        'assistant:close_account',
      ]);
    },
    secondDone({ bodies }) {
      expect((bodies() as Body[])[2]?.messages.map(label)).toEqual([
        'developer',
        'user',
        'assistant:lookup_order+issue_refund',
        'tool:call_lookup_1',
        'tool:call_refund_1',
        'assistant:close_account',
        'tool:call_close_1',
      ]);
    },
  },
});
