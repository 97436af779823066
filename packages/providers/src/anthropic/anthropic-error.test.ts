import type { ModelRequest } from '@interlude/core/provider';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropicOnWire } from '../testing/anthropic-on-wire.js';
import { loadFixtures } from '../testing/fixtures.js';
import { rejectedProviderError } from '../testing/rejected-error.js';
import { createWireServer, type WireServer } from '../testing/wire-server.js';

const fixtures = loadFixtures(new URL('./__fixtures__/', import.meta.url));
const request: ModelRequest = {
  instructions: 'You resolve support tickets.',
  messages: [{ role: 'user', content: 'Refund order 42' }],
  tools: [],
  toolChoice: undefined,
};
// The SDK honours `retry-after-ms`, so retried tests wait milliseconds, not its default backoff.
const retryNow = { 'retry-after-ms': '1' };

let server: WireServer;
beforeEach(async () => {
  server = await createWireServer();
});
afterEach(() => server.close());

function adapterWith(maxRetries: number) {
  return createAnthropicOnWire(server.url, { maxRetries });
}

describe('anthropic errors', () => {
  it('retries a 429 with backoff, then succeeds', async () => {
    server.enqueue(
      '/v1/messages',
      { json: fixtures.json('error-rate-limit'), status: 429, headers: retryNow },
      { json: fixtures.json('refund-done') },
    );
    const response = await adapterWith(2).call(request, { stream: false });
    expect(response.text).toBe('Refunded $25 on order 42.');
    expect(server.requests).toHaveLength(2);
  });

  it('gives up on a 500 after its retries with a retryable ProviderError', async () => {
    const answer = { json: fixtures.json('error-api'), status: 500, headers: retryNow };
    server.enqueue('/v1/messages', answer, answer, answer);
    const error = await rejectedProviderError(adapterWith(2).call(request, { stream: false }));
    expect(server.requests).toHaveLength(3);
    expect(error).toMatchObject({ provider: 'anthropic.messages', status: 500, type: 'api_error', isRetryable: true });
    expect(error.message).toContain('Internal server error');
    expect(error.cause).toBeInstanceOf(Error);
  });

  it('does not retry a 400 and says so', async () => {
    server.enqueue('/v1/messages', { json: fixtures.json('error-invalid-request'), status: 400 });
    const error = await rejectedProviderError(adapterWith(2).call(request, { stream: false }));
    expect(server.requests).toHaveLength(1);
    expect(error).toMatchObject({ status: 400, type: 'invalid_request_error', isRetryable: false });
  });

  it('maps a 529 overloaded answer with its type', async () => {
    server.enqueue('/v1/messages', { json: fixtures.json('error-overloaded'), status: 529 });
    const error = await rejectedProviderError(adapterWith(0).call(request, { stream: false }));
    expect(error).toMatchObject({ status: 529, type: 'overloaded_error', isRetryable: true });
  });

  it('maps an SSE error event mid-stream (no status, only a type)', async () => {
    server.enqueue('/v1/messages', { sse: fixtures.chunks('overloaded-mid-stream'), namedEvents: true });
    const error = await rejectedProviderError(adapterWith(0).call(request, { stream: true }));
    expect(error).toMatchObject({ status: undefined, type: 'overloaded_error', isRetryable: true });
  });

  it.each([
    ['the connection drops', true],
    ['the server ends the body early', false],
  ])('gives a clear error, never a hang, when a stream stops before message_stop: %s', async (_case, drop) => {
    const events = fixtures.chunks('refund-tool-use');
    server.enqueue(
      '/v1/messages',
      drop ? { sse: events, namedEvents: true, cutAfter: 9 } : { sse: events.slice(0, 9), namedEvents: true },
    );
    const error = await rejectedProviderError(adapterWith(0).call(request, { stream: true }));
    expect(error.type).toBe('stream_truncated');
    expect(error.isRetryable).toBe(true);
    expect(error.message).toMatch(/^Anthropic stream ended before the message was complete/);
  });

  it('maps a refused connection as retryable', async () => {
    const url = server.url;
    await server.close();
    const adapter = createAnthropicOnWire(url);
    const error = await rejectedProviderError(adapter.call(request, { stream: false }));
    expect(error).toMatchObject({ type: 'connection_error', isRetryable: true, status: undefined });
    server = await createWireServer();
  });

  it('maps a JSON body cut short as a retryable invalid response', async () => {
    server.enqueue('/v1/messages', { raw: '{"id":"msg_1","type":"message","content":[{"type":"te' });
    const error = await rejectedProviderError(adapterWith(0).call(request, { stream: false }));
    expect(error).toMatchObject({ type: 'invalid_response', isRetryable: true });
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });

  it.each([false, true])('maps an aborted call as aborted, not retryable (stream: %s)', async (stream) => {
    server.enqueue('/v1/messages', { json: fixtures.json('refund-done') });
    const signal = AbortSignal.abort();
    const error = await rejectedProviderError(adapterWith(0).call(request, { stream, signal }));
    expect(error).toMatchObject({ type: 'aborted', isRetryable: false });
  });

  it.each([
    ['no content', { type: 'message', role: 'assistant' }],
    ['a tool_use without an id', { content: [{ type: 'tool_use', name: 'lookup_order', input: {} }] }],
  ])('refuses an answer that is not a message: %s', async (_case, body) => {
    server.enqueue('/v1/messages', { json: body });
    const error = await rejectedProviderError(adapterWith(0).call(request, { stream: false }));
    expect(error).toMatchObject({ type: 'invalid_response', isRetryable: false });
  });
});
