import type { ModelRequest, ProviderAdapter } from '@interlude/core/provider';
import { expect, it } from 'vitest';
import type { WireReply, WireServer } from './wire-server.js';

export interface RetryChecks {
  stream: boolean;
  /** The running test's wire server (a getter: each test gets a fresh one). */
  server(): WireServer;
  /** The endpoint the SDK posts to (`/v1/chat/completions`). */
  path: string;
  /** The adapter's `provider`, as its errors carry it. */
  provider: string;
  /** A reply whose text is `I refunded $25 on order 42.`. */
  finalText: WireReply;
  build(maxRetries: number): ProviderAdapter;
  request(): ModelRequest;
  /** The title of the 500 test, as each adapter's suite words it. */
  serverErrorTitle: string;
}

/**
 * Adds, inside the caller's `describe`, the two retry tests both OpenAI adapters share because
 * they ride the same SDK retry loop: a 429 is retried and the answer that follows is read; a 500
 * that outlasts the retries is a retryable `ProviderError` naming the adapter.
 */
export function itRetriesRateLimitsAndServerErrors(checks: RetryChecks): void {
  const { stream, path } = checks;

  it('retries a 429 and succeeds on the next answer', async () => {
    checks.server().enqueue(
      path,
      {
        status: 429,
        json: { error: { message: 'Slow down', type: 'requests', code: 'rate_limit_exceeded' } },
        headers: { 'retry-after-ms': '1' },
      },
      checks.finalText,
    );
    const response = await checks.build(1).call(checks.request(), { stream });
    expect(response.text).toBe('I refunded $25 on order 42.');
    expect(checks.server().requests).toHaveLength(2);
  });

  it(checks.serverErrorTitle, async () => {
    const failure = {
      status: 500,
      json: { error: { message: 'The server had an error', type: 'server_error' } },
      headers: { 'retry-after-ms': '1' },
    };
    checks.server().enqueue(path, failure, failure);
    const error = await checks
      .build(1)
      .call(checks.request(), { stream })
      .catch((caught: unknown) => caught);
    expect(checks.server().requests).toHaveLength(2);
    expect(error).toMatchObject({
      name: 'ProviderError',
      provider: checks.provider,
      status: 500,
      type: 'server_error',
      isRetryable: true,
    });
  });
}
