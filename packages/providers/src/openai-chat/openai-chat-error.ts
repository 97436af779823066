import { ProviderError } from '@interlude/core/provider';
import { APIConnectionError, APIError, APIUserAbortError } from 'openai';

/** The Chat adapter's `provider` (checkpoint and `ProviderError`) and how its errors name it. */
export const OPENAI_CHAT_PROVIDER = 'openai.chat';
export const OPENAI_CHAT_LABEL = 'OpenAI Chat Completions';

/** HTTP statuses worth another try: timeouts, lock conflicts, rate limits and server faults. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

const retryableErrorTypes = /server_error|rate_limit|overloaded|timeout|unavailable/i;

/**
 * Turns whatever the OpenAI SDK threw into core's `ProviderError`, so the loop, telemetry and
 * users see one shape: HTTP errors keep their status and OpenAI's error type (or code), network
 * failures and streams cut mid-way are retryable, a user abort is not. Shared by the Chat and
 * Responses adapters, which use the same SDK and error bodies.
 *
 * @see https://platform.openai.com/docs/guides/error-codes
 */
export function mapOpenAIError(error: unknown, provider: string, label: string): ProviderError {
  if (ProviderError.isInstance(error)) return error;
  if (error instanceof APIUserAbortError || (error instanceof Error && error.name === 'AbortError')) {
    return abortedError(provider, label, error);
  }
  if (error instanceof APIConnectionError) {
    return new ProviderError({
      message: `${label} connection failed: ${describe(error)}`,
      provider,
      type: 'connection_error',
      isRetryable: true,
      cause: error,
    });
  }
  if (error instanceof APIError) {
    const reported = readErrorCode(error.code, error.type);
    const status = error.status ?? reported.status;
    const type = reported.type;
    const isRetryable = status !== undefined ? isRetryableStatus(status) : retryableErrorTypes.test(type ?? '');
    const where =
      error.status !== undefined
        ? ` with status ${error.status}`
        : ` mid-stream${status !== undefined ? ` (status ${status} in the stream)` : ''}`;
    return new ProviderError({
      message: `${label} request failed${where}${type === undefined ? '' : ` (${type})`}: ${error.message}`,
      provider,
      status,
      type,
      isRetryable,
      cause: error,
    });
  }
  if (error instanceof SyntaxError) {
    return invalidResponseError(provider, label, `a stream event is not JSON (${error.message})`, error);
  }
  return new ProviderError({
    message: `${label} stream failed before the response was complete: ${describe(error)}`,
    provider,
    type: 'stream_truncated',
    isRetryable: true,
    cause: error,
  });
}

/**
 * An error body's `code` and `type` as `ProviderError` fields. OpenAI's codes and types are
 * strings; a numeric code is an HTTP status an upstream reported inside a 200 stream (OpenRouter
 * sends `{"error": {"code": 400, "message": "Token limit reached"}}`), so it is the status, never
 * the type, and it decides whether trying again can help.
 *
 * @see https://openrouter.ai/docs/api-reference/errors#error-during-streaming
 */
export function readErrorCode(code: unknown, type: unknown): { type: string | undefined; status: number | undefined } {
  const status = typeof code === 'number' && Number.isInteger(code) && code >= 400 && code <= 599 ? code : undefined;
  if (typeof type === 'string' && type !== '') return { type, status };
  return { type: typeof code === 'string' && code !== '' ? code : undefined, status };
}

/** The stream closed before the API said the answer was complete: a cut connection, never a valid answer. */
export function streamEndedEarlyError(provider: string, label: string, missing: string): ProviderError {
  return new ProviderError({
    message: `${label} stream ended before the response was complete (no ${missing}); the connection was probably cut`,
    provider,
    type: 'stream_truncated',
    isRetryable: true,
  });
}

/** The API answered 200 with JSON we cannot use. Not retryable: the same request gives the same shape. */
export function invalidResponseError(provider: string, label: string, detail: string, cause?: unknown): ProviderError {
  return new ProviderError({
    message: `${label} returned a response Interlude cannot read: ${detail}`,
    provider,
    type: 'invalid_response',
    isRetryable: false,
    cause,
  });
}

/** The caller aborted the call (its `signal`): not a provider fault, so never retried. */
export function abortedError(provider: string, label: string, cause?: unknown): ProviderError {
  return new ProviderError({
    message: `${label} request was aborted`,
    provider,
    type: 'aborted',
    isRetryable: false,
    cause,
  });
}

/** An error's message followed by its causes' (`Connection error. (fetch failed: other side closed)`), so the real reason shows. */
function describe(error: unknown): string {
  const messages: string[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && messages.length < 4) {
    messages.push(current instanceof Error ? current.message : String(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  const [first, ...rest] = messages;
  return rest.length === 0 ? (first ?? '') : `${first} (${rest.join(': ')})`;
}
