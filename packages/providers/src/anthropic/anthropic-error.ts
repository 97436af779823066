import { AnthropicError, APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { ProviderError } from '@interlude/core/provider';
import { anthropicErrorBodySchema } from './anthropic-api.js';

export const ANTHROPIC_PROVIDER = 'anthropic.messages';

/** A stream that stopped after it started and before `message_stop`. */
export class AnthropicStreamTruncatedError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'AnthropicStreamTruncatedError';
  }
}

const RETRYABLE_TYPES = new Set(['overloaded_error', 'rate_limit_error', 'api_error', 'timeout_error']);

/**
 * Any failure of a Messages call as core's `ProviderError`, so the loop, telemetry and users
 * see one shape whatever the provider. Retryable: 408/409/429/5xx, the API's overloaded and
 * rate-limit types (an SSE `error` event carries no status, only the type), lost connections
 * streams that ended before `message_stop` and JSON bodies cut short. A truncated stream gets
 * its own type, `stream_truncated`, so a user can tell it from a refusal.
 *
 * @see https://docs.anthropic.com/en/api/errors
 */
export function toAnthropicProviderError(error: unknown): ProviderError {
  if (ProviderError.isInstance(error)) return error;
  if (error instanceof AnthropicStreamTruncatedError || isTruncatedStream(error)) {
    return new ProviderError({
      message: `Anthropic stream ended before the message was complete (${error instanceof Error ? error.message : String(error)})`,
      provider: ANTHROPIC_PROVIDER,
      type: 'stream_truncated',
      isRetryable: true,
      cause: error,
    });
  }
  if (error instanceof APIUserAbortError) {
    return new ProviderError({
      message: 'Anthropic request aborted',
      provider: ANTHROPIC_PROVIDER,
      type: 'aborted',
      isRetryable: false,
      cause: error,
    });
  }
  if (error instanceof APIConnectionError) {
    return new ProviderError({
      message: `Anthropic connection failed: ${error.message}`,
      provider: ANTHROPIC_PROVIDER,
      type: 'connection_error',
      isRetryable: true,
      cause: error,
    });
  }
  if (error instanceof APIError) {
    const type = error.type ?? errorTypeOf(error.error);
    return new ProviderError({
      message: `Anthropic request failed: ${error.message}`,
      provider: ANTHROPIC_PROVIDER,
      status: error.status,
      type,
      isRetryable: isRetryableStatus(error.status) || (type !== undefined && RETRYABLE_TYPES.has(type)),
      cause: error,
    });
  }
  if (error instanceof SyntaxError) {
    // A JSON body cut short (a dropped connection, a proxy timeout) fails to parse in the SDK.
    return new ProviderError({
      message: `Anthropic answered with a body that is not whole JSON (${error.message})`,
      provider: ANTHROPIC_PROVIDER,
      type: 'invalid_response',
      isRetryable: true,
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError({
    message: `Anthropic call failed: ${message}`,
    provider: ANTHROPIC_PROVIDER,
    type: error instanceof AnthropicError ? 'sdk_error' : undefined,
    isRetryable: false,
    cause: error,
  });
}

export function isRetryableStatus(status: number | undefined): boolean {
  return status === 408 || status === 409 || status === 429 || (status !== undefined && status >= 500);
}

function errorTypeOf(body: unknown): string | undefined {
  const parsed = anthropicErrorBodySchema.safeParse(body);
  return parsed.success ? parsed.data.error.type : undefined;
}

/** The SDK's words for a stream whose body ended before it produced a whole message. */
function isTruncatedStream(error: unknown): boolean {
  return (
    error instanceof AnthropicError &&
    !(error instanceof APIError) &&
    /stream ended without producing|request ended without sending any chunks/i.test(error.message)
  );
}
