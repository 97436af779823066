import { describe, expect, it } from 'vitest';
import { toGenAiMessages, toGenAiOutput } from './genai-messages.js';

/** One refund turn (ask, call a tool, get its result) as each API stores it, and as the conventions write it. */
const conventions = [
  { role: 'user', parts: [{ type: 'text', content: 'Refund order 7' }] },
  {
    role: 'assistant',
    parts: [
      { type: 'text', content: 'Looking it up.' },
      { type: 'tool_call', id: 'call_1', name: 'lookup_order', arguments: { order_id: 7 } },
    ],
  },
  { role: 'tool', parts: [{ type: 'tool_call_response', id: 'call_1', response: '{"total":30}' }] },
];

describe('provider-native messages as GenAI messages', () => {
  it('reads Anthropic Messages (tool results in a user turn become a tool message)', () => {
    expect(
      toGenAiMessages([
        { role: 'user', content: 'Refund order 7' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Looking it up.' },
            { type: 'tool_use', id: 'call_1', name: 'lookup_order', input: { order_id: 7 } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: '{"total":30}' }] },
      ]),
    ).toEqual(conventions);
  });

  it('reads OpenAI Chat (JSON-string arguments parsed back)', () => {
    expect(
      toGenAiMessages([
        { role: 'user', content: 'Refund order 7' },
        {
          role: 'assistant',
          content: 'Looking it up.',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'lookup_order', arguments: '{"order_id":7}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"total":30}' },
      ]),
    ).toEqual(conventions);
  });

  it('reads OpenAI Responses items (a function call joins the assistant message before it)', () => {
    expect(
      toGenAiMessages([
        { role: 'user', content: 'Refund order 7' },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Looking it up.' }] },
        { type: 'function_call', call_id: 'call_1', name: 'lookup_order', arguments: '{"order_id":7}' },
        { type: 'function_call_output', call_id: 'call_1', output: '{"total":30}' },
      ]),
    ).toEqual(conventions);
  });

  it('keeps a block it does not know under its own type, and marks the answer with its finish reason', () => {
    expect(
      toGenAiOutput(
        [{ role: 'assistant', content: [{ type: 'server_tool_use', id: 'srv_1', name: 'web_search' }] }],
        'end_turn',
      ),
    ).toEqual([
      {
        role: 'assistant',
        parts: [{ type: 'server_tool_use', id: 'srv_1', name: 'web_search' }],
        finish_reason: 'end_turn',
      },
    ]);
  });
});
