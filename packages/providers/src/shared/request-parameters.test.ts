import { expect, it } from 'vitest';
import { anthropic } from '../anthropic/anthropic-adapter.js';
import { openaiChat } from '../openai-chat/openai-chat-adapter.js';
import { openaiResponses } from '../openai-responses/openai-responses-adapter.js';

it('each adapter says which sampling settings it sends, for traces, and only those it sets', () => {
  const key = { apiKey: 'test-key' };
  expect(anthropic({ model: 'claude-sonnet-5-5', ...key }).requestParameters).toEqual({ maxTokens: 4096 });
  expect(anthropic({ model: 'claude-sonnet-5-5', maxTokens: 1024, ...key }).requestParameters).toEqual({
    maxTokens: 1024,
  });
  expect(openaiChat({ model: 'gpt-5', temperature: 0.2, maxCompletionTokens: 500, ...key }).requestParameters).toEqual({
    maxTokens: 500,
    temperature: 0.2,
  });
  expect(openaiChat({ model: 'gpt-5', ...key }).requestParameters).toEqual({});
  expect(openaiResponses({ model: 'gpt-5', maxOutputTokens: 800, ...key }).requestParameters).toEqual({
    maxTokens: 800,
  });
});
