import type { ModelRequest, ModelStreamPart, ToolSpec } from '@interlude/core/provider';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanlyEndedStream } from '../testing/cleanly-ended-stream.js';
import { itRetriesRateLimitsAndServerErrors } from '../testing/it-retries-rate-limits-and-server-errors.js';
import { createModelRequest, lookupOrderSpec } from '../testing/model-request.js';
import { openaiFixtures } from '../testing/openai-fixtures.js';
import { createWireServer, type WireServer } from '../testing/wire-server.js';
import { type OpenAIResponsesOptions, openaiResponses } from './openai-responses-adapter.js';

const fixtures = openaiFixtures(new URL('./__fixtures__/', import.meta.url), 'responses');
const path = '/v1/responses';

const tools: ToolSpec[] = [lookupOrderSpec];

let server: WireServer;
beforeEach(async () => {
  server = await createWireServer();
});
afterEach(async () => {
  await server.close();
});

function adapter(options: Partial<OpenAIResponsesOptions> = {}) {
  return openaiResponses({ model: 'gpt-5', apiKey: 'test', baseURL: `${server.url}/v1`, maxRetries: 0, ...options });
}

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return createModelRequest(adapter(), tools, overrides);
}

describe.each([false, true])('openaiResponses call (stream: %s)', (stream) => {
  it('sends instructions apart from the items, a forced tool choice, and asks for encrypted reasoning when store is false', async () => {
    server.enqueue(path, fixtures.reply('refund-tool-calls', stream));
    await adapter({ store: false }).call(request({ toolChoice: { type: 'tool', name: 'lookup_order' } }), { stream });

    const body = server.requests[0]?.body as Record<string, unknown>;
    expect(body['instructions']).toBe('You resolve support tickets.');
    expect(body['input']).toEqual([{ role: 'user', content: 'Resolve ticket 42' }]);
    expect(body['tools']).toEqual([
      {
        type: 'function',
        name: 'lookup_order',
        description: 'Look an order up',
        parameters: tools[0]?.inputSchema,
        strict: false,
      },
    ]);
    expect(body['tool_choice']).toEqual({ type: 'function', name: 'lookup_order' });
    expect(body['store']).toBe(false);
    expect(body['include']).toEqual(['reasoning.encrypted_content']);
    expect(body['stream']).toBe(stream ? true : undefined);
  });

  it('returns every output item of the turn in order, reasoning included, and the calls by call_id', async () => {
    server.enqueue(path, fixtures.reply('refund-tool-calls', stream));
    const parts: ModelStreamPart[] = [];
    const response = await adapter().call(request(), { stream, onPart: (part) => parts.push(part) });

    const recorded = fixtures.json('refund-tool-calls') as { output: unknown[] };
    expect(response.messages).toEqual(recorded.output);
    expect(response.messages.map((item) => (item as { type: string }).type)).toEqual([
      'reasoning',
      'function_call',
      'function_call',
    ]);
    expect(response.toolCalls).toEqual([
      { id: 'call_lookup_1', name: 'lookup_order', arguments: { order_id: 42 } },
      { id: 'call_refund_1', name: 'issue_refund', arguments: { order_id: 42, amount: 25 } },
    ]);
    expect(response.finishReason).toBe('tool-calls');
    expect(response.usage).toEqual({ inputTokens: 210, outputTokens: 88, cacheReadTokens: 0 });
    expect(response.responseId).toBe('resp_refund_1');
    if (stream) expect(parts).toEqual(response.toolCalls.map((toolCall) => ({ type: 'tool-call', toolCall })));
  });

  it('reads a final text answer and reports text deltas when streamed', async () => {
    server.enqueue(path, fixtures.reply('refund-final-text', stream));
    const parts: ModelStreamPart[] = [];
    const response = await adapter().call(request(), { stream, onPart: (part) => parts.push(part) });
    expect(response.text).toBe('I refunded $25 on order 42.');
    expect(response.finishReason).toBe('stop');
    expect(response.toolCalls).toEqual([]);
    if (stream) {
      expect(parts.map((part) => (part.type === 'text-delta' ? part.text : '')).join('')).toBe(
        'I refunded $25 on order 42.',
      );
    }
  });

  itRetriesRateLimitsAndServerErrors({
    stream,
    server: () => server,
    path,
    provider: 'openai.responses',
    finalText: fixtures.reply('refund-final-text', stream),
    build: (maxRetries) => adapter({ maxRetries }),
    request: () => request(),
    serverErrorTitle: 'gives a retryable ProviderError once a 500 outlasts the retries',
  });
});

describe('openaiResponses streams that end early or fail', () => {
  it('fails with a clear error when the stream closes before response.completed', async () => {
    const events = fixtures.chunks('refund-tool-calls').slice(0, 8);
    server.enqueue(path, cleanlyEndedStream(events));
    const error = await adapter()
      .call(request(), { stream: true })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'ProviderError', type: 'stream_truncated', isRetryable: true });
    expect((error as Error).message).toMatch(/OpenAI Responses stream ended before the response was complete/);
  });

  it('fails with a clear error when the connection drops', async () => {
    server.enqueue(path, { sse: fixtures.chunks('refund-tool-calls'), namedEvents: true, cutAfter: 5 });
    const error = await adapter()
      .call(request(), { stream: true })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'ProviderError', provider: 'openai.responses', isRetryable: true });
  });

  it('turns an error event into a ProviderError carrying its code', async () => {
    server.enqueue(path, {
      sse: [
        fixtures.chunks('refund-tool-calls')[0],
        { type: 'error', code: 'server_error', message: 'Something broke', sequence_number: 1 },
      ],
      namedEvents: true,
    });
    const error = await adapter()
      .call(request(), { stream: true })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'ProviderError', type: 'server_error', isRetryable: true });
    expect((error as Error).message).toContain('Something broke');
  });

  it('turns a failed response into a ProviderError', async () => {
    const failed = {
      ...(fixtures.json('refund-final-text') as object),
      status: 'failed',
      output: [],
      error: { code: 'invalid_prompt', message: 'No.' },
    };
    server.enqueue(path, { json: failed });
    const error = await adapter()
      .call(request(), { stream: false })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'ProviderError', type: 'invalid_prompt', isRetryable: false });
  });
});

describe('openaiResponses items', () => {
  it('lets events it does not act on pass, whatever their shape', async () => {
    const events = fixtures.chunks('refund-final-text');
    events.splice(2, 0, { type: 'response.mcp_call_arguments.delta', output_index: 0, delta: { partial: true } });
    server.enqueue(path, { sse: events, namedEvents: true });
    const response = await adapter().call(request(), { stream: true });
    expect(response.text).toBe('I refunded $25 on order 42.');
  });

  it('carries results back as function_call_output items in call order', () => {
    expect(
      adapter().toolResultMessages([
        {
          toolCallId: 'call_lookup_1',
          toolName: 'lookup_order',
          result: { total: 25 },
          output: '{"total":25}',
          isError: false,
        },
        { toolCallId: 'call_refund_1', toolName: 'issue_refund', result: 'ok', output: 'ok', isError: false },
      ]),
    ).toEqual([
      { type: 'function_call_output', call_id: 'call_lookup_1', output: '{"total":25}' },
      { type: 'function_call_output', call_id: 'call_refund_1', output: 'ok' },
    ]);
  });

  it('reads the calls back out of a stored turn, skipping its reasoning item', () => {
    const turn = JSON.parse(JSON.stringify((fixtures.json('refund-tool-calls') as { output: unknown[] }).output));
    expect(
      adapter()
        .toolCallsIn(turn)
        .map((call) => call.id),
    ).toEqual(['call_lookup_1', 'call_refund_1']);
  });

  it('maps an incomplete response to a length finish', async () => {
    const incomplete = {
      ...(fixtures.json('refund-final-text') as object),
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
    };
    server.enqueue(path, { json: incomplete });
    const response = await adapter().call(request(), { stream: false });
    expect(response).toMatchObject({ finishReason: 'length', rawFinishReason: 'max_output_tokens' });
  });
});
