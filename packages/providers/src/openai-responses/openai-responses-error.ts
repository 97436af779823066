import { ProviderError } from '@interlude/core/provider';
import { isRetryableStatus, mapOpenAIError, readErrorCode } from '../openai-chat/openai-chat-error.js';

export {
  abortedError,
  invalidResponseError,
  streamEndedEarlyError,
} from '../openai-chat/openai-chat-error.js';

export const OPENAI_RESPONSES_PROVIDER = 'openai.responses';
export const OPENAI_RESPONSES_LABEL = 'OpenAI Responses';

const retryableCodes = /server_error|rate_limit|overloaded|timeout|unavailable/i;

/** SDK errors of a Responses call as core's `ProviderError` (same mapping as Chat: one SDK, one error body). */
export function mapOpenAIResponsesError(error: unknown): ProviderError {
  return mapOpenAIError(error, OPENAI_RESPONSES_PROVIDER, OPENAI_RESPONSES_LABEL);
}

/**
 * A response that came back `failed`, or an `error` event in the stream: the HTTP call succeeded,
 * but the error code says whether trying again can help (a numeric one is an upstream status).
 *
 * @see https://platform.openai.com/docs/api-reference/responses-streaming/error
 */
export function responseFailedError(
  code: string | number | null | undefined,
  message: string | null | undefined,
): ProviderError {
  const { type, status } = readErrorCode(code, undefined);
  const named = type ?? (status !== undefined ? `status ${status}` : undefined);
  return new ProviderError({
    message: `${OPENAI_RESPONSES_LABEL} response failed${named === undefined ? '' : ` (${named})`}: ${message ?? 'no message'}`,
    provider: OPENAI_RESPONSES_PROVIDER,
    status,
    type,
    isRetryable: status !== undefined ? isRetryableStatus(status) : retryableCodes.test(type ?? ''),
  });
}
