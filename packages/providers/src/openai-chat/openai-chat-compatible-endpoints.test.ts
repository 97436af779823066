import { AzureOpenAI } from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openaiFixtures } from '../testing/openai-fixtures.js';
import { runToStop } from '../testing/run-to-stop.js';
import { createSupportDesk, SUPPORT_INSTRUCTIONS } from '../testing/support-desk.js';
import { createWireServer, type WireServer } from '../testing/wire-server.js';
import { openaiChat } from './openai-chat-adapter.js';

const fixtures = openaiFixtures(new URL('./__fixtures__/', import.meta.url), 'chat');

let server: WireServer;
beforeEach(async () => {
  server = await createWireServer();
});
afterEach(() => server.close());

describe('openaiChat on compatible endpoints', () => {
  it('runs through a ready AzureOpenAI client: deployment path, api-version and api-key header', async () => {
    const client = new AzureOpenAI({
      apiKey: 'azure-key',
      endpoint: server.url,
      apiVersion: '2024-10-21',
      deployment: 'support-gpt-4o',
      maxRetries: 0,
    });
    const { agent } = createSupportDesk(openaiChat({ model: 'gpt-4o', client }));
    server.enqueue('/openai/deployments/support-gpt-4o/chat/completions', fixtures.reply('refund-tool-calls', false));

    const paused = await agent.handle({ ticketId: 42 }).generateNow();
    expect(paused.awaitingInput).toBe(true);
    expect(paused.checkpoint).toMatchObject({ service: 'openai', provider: 'openai.chat', model: 'gpt-4o' });
    const [request] = server.requests;
    expect(request?.headers['api-key']).toBe('azure-key');
    expect(request?.path).toBe('/openai/deployments/support-gpt-4o/chat/completions');
  });

  it('speaks to an Ollama-style server: system instructions, tool calls under finish_reason stop, no stream usage', async () => {
    const provider = openaiChat({
      model: 'llama3.1',
      baseURL: `${server.url}/v1`,
      apiKey: 'ollama',
      maxRetries: 0,
      instructionsRole: 'system',
      streamUsage: false,
    });
    const { agent, runs } = createSupportDesk(provider);
    // Ollama reports `stop` even when the message carries tool calls.
    const chunks = fixtures.chunks('refund-tool-calls').map((chunk) => {
      const choice = (chunk as { choices: { finish_reason: string | null }[] }).choices[0];
      if (choice?.finish_reason === 'tool_calls') choice.finish_reason = 'stop';
      return chunk;
    });
    server.enqueue('/v1/chat/completions', { sse: chunks, done: true });

    const paused = await runToStop(agent.handle({ ticketId: 42 }), { stream: true });
    expect(paused.response.awaitingInput).toBe(true);
    expect(runs.lookup_order).toBe(1);
    const body = server.requests[0]?.body as Record<string, unknown> & { messages: unknown[] };
    expect(body.messages[0]).toEqual({ role: 'system', content: SUPPORT_INSTRUCTIONS });
    expect(body).not.toHaveProperty('stream_options');
  });

  it('passes endpoint-specific fields through extraBody (OpenRouter provider routing)', async () => {
    const provider = openaiChat({
      model: 'openai/gpt-4.1',
      baseURL: `${server.url}/v1`,
      apiKey: 'test',
      maxRetries: 0,
      extraBody: { provider: { order: ['openai', 'azure'] } },
    });
    server.enqueue('/v1/chat/completions', fixtures.reply('refund-final-text', false));
    const response = await createSupportDesk(provider).agent.handle({ ticketId: 42 }).generateNow();
    expect(response.text).toBe('I refunded $25 on order 42.');
    expect(server.requests[0]?.body).toMatchObject({
      model: 'openai/gpt-4.1',
      provider: { order: ['openai', 'azure'] },
    });
  });
});
