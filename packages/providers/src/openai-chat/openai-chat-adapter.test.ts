import type { ModelRequest, ModelStreamPart, ToolSpec } from '@interlude/core/provider';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanlyEndedStream } from '../testing/cleanly-ended-stream.js';
import { itRetriesRateLimitsAndServerErrors } from '../testing/it-retries-rate-limits-and-server-errors.js';
import { createModelRequest, lookupOrderSpec } from '../testing/model-request.js';
import { openaiFixtures } from '../testing/openai-fixtures.js';
import { createWireServer, type WireServer } from '../testing/wire-server.js';
import { openaiChat } from './openai-chat-adapter.js';

const fixtures = openaiFixtures(new URL('./__fixtures__/', import.meta.url), 'chat');
const path = '/v1/chat/completions';

const tools: ToolSpec[] = [
  lookupOrderSpec,
  {
    name: 'issue_refund',
    description: 'Refund part of an order',
    inputSchema: { type: 'object', properties: { order_id: { type: 'number' }, amount: { type: 'number' } } },
  },
];

let server: WireServer;
beforeEach(async () => {
  server = await createWireServer();
});
afterEach(async () => {
  await server.close();
});

function adapter(maxRetries = 0) {
  return openaiChat({ model: 'gpt-4.1', apiKey: 'test', baseURL: `${server.url}/v1`, maxRetries });
}

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return createModelRequest(adapter(), tools, overrides);
}

describe.each([false, true])('openaiChat call (stream: %s)', (stream) => {
  it('sends one developer message, the tools and a forced tool choice, and reads both tool calls in order', async () => {
    server.enqueue(path, fixtures.reply('refund-tool-calls', stream));
    const parts: ModelStreamPart[] = [];
    const response = await adapter().call(request({ toolChoice: { type: 'tool', name: 'lookup_order' } }), {
      stream,
      onPart: (part) => parts.push(part),
    });

    const body = server.requests[0]?.body as Record<string, unknown>;
    expect(body['messages']).toEqual([
      { role: 'developer', content: 'You resolve support tickets.' },
      { role: 'user', content: 'Resolve ticket 42' },
    ]);
    expect(body['tools']).toEqual([
      {
        type: 'function',
        function: { name: 'lookup_order', description: 'Look an order up', parameters: tools[0]?.inputSchema },
      },
      {
        type: 'function',
        function: { name: 'issue_refund', description: 'Refund part of an order', parameters: tools[1]?.inputSchema },
      },
    ]);
    expect(body['tool_choice']).toEqual({ type: 'function', function: { name: 'lookup_order' } });
    expect(body['stream']).toBe(stream ? true : undefined);

    expect(response.toolCalls).toEqual([
      { id: 'call_lookup_1', name: 'lookup_order', arguments: { order_id: 42 } },
      { id: 'call_refund_1', name: 'issue_refund', arguments: { order_id: 42, amount: 25 } },
    ]);
    expect(response.messages).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_lookup_1', type: 'function', function: { name: 'lookup_order', arguments: '{"order_id":42}' } },
          {
            id: 'call_refund_1',
            type: 'function',
            function: { name: 'issue_refund', arguments: '{"order_id":42,"amount":25}' },
          },
        ],
      },
    ]);
    expect(response.finishReason).toBe('tool-calls');
    expect(response.rawFinishReason).toBe('tool_calls');
    expect(response.usage).toEqual({ inputTokens: 182, outputTokens: 51, cacheReadTokens: 0 });
    expect(response.responseModel).toBe('gpt-4.1-2025-04-14');
    if (stream) {
      expect(parts).toEqual(response.toolCalls.map((toolCall) => ({ type: 'tool-call', toolCall })));
    }
  });

  it('reads a final text answer and reports text deltas when streamed', async () => {
    server.enqueue(path, fixtures.reply('refund-final-text', stream));
    const parts: ModelStreamPart[] = [];
    const response = await adapter().call(request(), { stream, onPart: (part) => parts.push(part) });

    expect(response.text).toBe('I refunded $25 on order 42.');
    expect(response.toolCalls).toEqual([]);
    expect(response.finishReason).toBe('stop');
    expect(response.messages).toEqual([{ role: 'assistant', content: 'I refunded $25 on order 42.' }]);
    expect(response.usage).toEqual({ inputTokens: 301, outputTokens: 12, cacheReadTokens: 256 });
    if (stream) {
      const deltas = parts.map((part) => (part.type === 'text-delta' ? part.text : ''));
      expect(deltas.join('')).toBe('I refunded $25 on order 42.');
      expect(deltas.length).toBeGreaterThan(1);
    }
  });

  itRetriesRateLimitsAndServerErrors({
    stream,
    server: () => server,
    path,
    provider: 'openai.chat',
    finalText: fixtures.reply('refund-final-text', stream),
    build: adapter,
    request: () => request(),
    serverErrorTitle: 'gives a retryable ProviderError with status and type once a 500 outlasts the retries',
  });

  it('does not retry a 400 and says it is not retryable', async () => {
    server.enqueue(path, { status: 400, json: { error: { message: 'Bad tools', type: 'invalid_request_error' } } });
    const error = await adapter(2)
      .call(request(), { stream })
      .catch((caught: unknown) => caught);
    expect(server.requests).toHaveLength(1);
    expect(error).toMatchObject({
      name: 'ProviderError',
      status: 400,
      type: 'invalid_request_error',
      isRetryable: false,
    });
  });
});

describe('openaiChat streams that end early', () => {
  it('reports a stream event that is not JSON as an invalid response, not retryable', async () => {
    server.enqueue(path, { raw: 'data: {"choices":[{"index":0,\n\n', contentType: 'text/event-stream' });
    const error = await adapter()
      .call(request(), { stream: true })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'ProviderError', type: 'invalid_response', isRetryable: false });
  });

  it('fails with a clear, retryable ProviderError when the connection drops', async () => {
    server.enqueue(path, { sse: fixtures.chunks('refund-tool-calls'), cutAfter: 3 });
    const error = await adapter()
      .call(request(), { stream: true })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'ProviderError', provider: 'openai.chat', isRetryable: true });
    expect((error as Error).message).toMatch(/^OpenAI Chat Completions .*other side closed/);
  });

  it('fails when the stream closes cleanly half way, without a finish_reason', async () => {
    const frames = fixtures.chunks('refund-tool-calls').slice(0, 4);
    server.enqueue(path, cleanlyEndedStream(frames));
    const error = await adapter()
      .call(request(), { stream: true })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'ProviderError', type: 'stream_truncated', isRetryable: true });
    expect((error as Error).message).toMatch(/ended before the response was complete \(no finish_reason\)/);
  });

  it('reports an error event inside the stream as a ProviderError', async () => {
    server.enqueue(path, { sse: [{ error: { message: 'overloaded', type: 'server_error' } }] });
    const error = await adapter()
      .call(request(), { stream: true })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'ProviderError', type: 'server_error', isRetryable: true });
  });
});

describe('openaiChat streams from compatible servers', () => {
  it('assembles tool calls whose pieces carry no index, and ignores other choices', async () => {
    const piece = (delta: Record<string, unknown>, finish: string | null = null) => ({
      choices: [
        { index: 1, delta: { content: 'other choice' } },
        { index: 0, delta, finish_reason: finish },
      ],
    });
    server.enqueue(path, {
      sse: [
        piece({
          role: 'assistant',
          tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'lookup_order', arguments: '{"order_' } }],
        }),
        piece({ tool_calls: [{ function: { arguments: 'id":42}' } }] }),
        piece({
          tool_calls: [
            { id: 'call_b', type: 'function', function: { name: 'lookup_order', arguments: '{"order_id":7}' } },
          ],
        }),
        piece({}, 'tool_calls'),
      ],
      done: true,
    });
    const response = await adapter().call(request(), { stream: true });
    expect(response.text).toBe('');
    expect(response.toolCalls).toEqual([
      { id: 'call_a', name: 'lookup_order', arguments: { order_id: 42 } },
      { id: 'call_b', name: 'lookup_order', arguments: { order_id: 7 } },
    ]);
  });
});

describe('openaiChat aborts', () => {
  it('gives a non-retryable aborted ProviderError when the caller aborts, without sending anything', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await adapter(2)
      .call(request(), { stream: true, signal: controller.signal })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'ProviderError', type: 'aborted', isRetryable: false });
    expect(server.requests).toHaveLength(0);
  });
});

describe('openaiChat messages', () => {
  it('carries results back as one tool message per call, in call order', () => {
    const messages = adapter().toolResultMessages([
      {
        toolCallId: 'call_lookup_1',
        toolName: 'lookup_order',
        result: { total: 25 },
        output: '{"total":25}',
        isError: false,
      },
      { toolCallId: 'call_refund_1', toolName: 'issue_refund', result: 'ok', output: 'ok', isError: false },
    ]);
    expect(messages).toEqual([
      { role: 'tool', tool_call_id: 'call_lookup_1', content: '{"total":25}' },
      { role: 'tool', tool_call_id: 'call_refund_1', content: 'ok' },
    ]);
  });

  it('reads the tool calls back out of a stored turn after a JSON round trip', async () => {
    server.enqueue(path, fixtures.reply('refund-tool-calls', false));
    const response = await adapter().call(request(), { stream: false });
    const stored = JSON.parse(JSON.stringify(response.messages));
    expect(adapter().toolCallsIn(stored)).toEqual(response.toolCalls);
  });

  it('sends no instructions message when there are none, and no tool fields without tools', async () => {
    server.enqueue(path, fixtures.reply('refund-final-text', false));
    await adapter().call(request({ instructions: undefined, tools: [], toolChoice: 'required' }), { stream: false });
    const body = server.requests[0]?.body as Record<string, unknown>;
    expect(body['messages']).toEqual([{ role: 'user', content: 'Resolve ticket 42' }]);
    expect(body).not.toHaveProperty('tools');
    expect(body).not.toHaveProperty('tool_choice');
  });
});
