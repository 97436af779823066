import { ProviderError } from '@interlude/core';
import { mapOpenAIError } from '../openai-chat/openai-chat-error.js';

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
 * so there is no status, but the error code says whether trying again can help.
 *
 * @see https://platform.openai.com/docs/api-reference/responses-streaming/error
 */
export function responseFailedError(
  code: string | null | undefined,
  message: string | null | undefined,
): ProviderError {
  const type = code ?? undefined;
  return new ProviderError({
    message: `${OPENAI_RESPONSES_LABEL} response failed${type === undefined ? '' : ` (${type})`}: ${message ?? 'no message'}`,
    provider: OPENAI_RESPONSES_PROVIDER,
    type,
    isRetryable: retryableCodes.test(type ?? ''),
  });
}
