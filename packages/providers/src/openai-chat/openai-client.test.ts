import { afterEach, describe, expect, it } from 'vitest';
import { openaiChat } from './openai-chat-adapter.js';

const saved = process.env['OPENAI_API_KEY'];
afterEach(() => {
  if (saved === undefined) delete process.env['OPENAI_API_KEY'];
  else process.env['OPENAI_API_KEY'] = saved;
});

describe("openaiChat()'s SDK client", () => {
  it('is one per set of options for the process, built on first use when given a key', () => {
    const options = { model: 'gpt-4.1', apiKey: 'client-test-key', baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0 };
    const first = openaiChat(options);
    const second = openaiChat(options);
    expect(first.client).toBe(second.client);
    expect(first.client.baseURL).toBe('http://127.0.0.1:9/v1');
    expect(openaiChat({ ...options, maxRetries: 1 }).client).not.toBe(first.client);
  });

  it('without a key and without OPENAI_API_KEY, throws when the adapter is made, before anything runs', () => {
    delete process.env['OPENAI_API_KEY'];
    expect(() => openaiChat({ model: 'gpt-4.1', baseURL: 'http://127.0.0.1:9/v1' })).toThrow(/OPENAI_API_KEY/);
  });
});
