import { createRuntime, defineAgent, hasContext, memoryContextStore } from '@interlude/core';
import type { ProviderAdapter } from '@interlude/core/provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropic } from '../anthropic/index.js';
import { openaiChat } from '../openai-chat/index.js';
import { openaiResponses } from '../openai-responses/index.js';
import { createWireServer, type WireServer } from './wire-server.js';

let server: WireServer;
beforeAll(async () => {
  server = await createWireServer();
});
afterAll(async () => {
  await server.close();
});

const textReplies: Record<string, (text: string) => unknown> = {
  '/v1/messages': (text) => ({
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'm',
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
    content: [{ type: 'text', text }],
  }),
  '/v1/chat/completions': (text) => ({
    id: 'c1',
    object: 'chat.completion',
    created: 1,
    model: 'm',
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: text } }],
  }),
  '/v1/responses': (text) => ({
    id: 'resp_1',
    status: 'completed',
    output: [
      {
        type: 'message',
        id: 'msg_1',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text, annotations: [] }],
      },
    ],
  }),
};

const adapters: Array<[string, string, () => ProviderAdapter, unknown]> = [
  [
    'anthropic',
    '/v1/messages',
    () => anthropic({ model: 'm', baseURL: server.url, apiKey: 'test', maxRetries: 0 }),
    { role: 'assistant', content: [{ type: 'text', text: 'Refunded.' }] },
  ],
  [
    'openai-chat',
    '/v1/chat/completions',
    () => openaiChat({ model: 'm', baseURL: `${server.url}/v1`, apiKey: 'test', maxRetries: 0 }),
    { role: 'assistant', content: 'Refunded.' },
  ],
  [
    'openai-responses',
    '/v1/responses',
    () => openaiResponses({ model: 'm', baseURL: `${server.url}/v1`, apiKey: 'test', maxRetries: 0 }),
    { role: 'assistant', content: 'Refunded.' },
  ],
];

describe('a stored conversation replays as provider-native turns (hasContext)', () => {
  for (const [name, path, build, expectedAssistant] of adapters) {
    it(`${name}: the second generation sends the first exchange before its own message`, async () => {
      const reply = textReplies[path] as (text: string) => unknown;
      server.enqueue(path, { json: reply('Refunded.') }, { json: reply('Anything else?') });
      const agent = defineAgent({
        name: `replay_${name.replace('-', '_')}`,
        runtime: createRuntime(),
        provider: build(),
        actions: { handle: ({ text }: { text: string }) => ({ message: text }) },
        context: hasContext(memoryContextStore()),
      });
      const before = server.requests.length;
      await agent.handle({ text: 'Refund order 42' }).generateNow();
      await agent.handle({ text: 'Thanks' }).generateNow();
      const body = server.requests[before + 1]?.body as { messages?: unknown[]; input?: unknown[] };
      const sent = (body.messages ?? body.input ?? []).filter(
        (message) => (message as { role?: string }).role !== 'developer',
      );
      expect(sent).toEqual([
        { role: 'user', content: 'Refund order 42' },
        expectedAssistant,
        { role: 'user', content: 'Thanks' },
      ]);
    });
  }
});
