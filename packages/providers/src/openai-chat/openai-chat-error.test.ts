import { APIError } from 'openai';
import { describe, expect, it } from 'vitest';
import { responseFailedError } from '../openai-responses/openai-responses-error.js';
import { mapOpenAIError, readErrorCode } from './openai-chat-error.js';

/** The error the SDK throws for a stream chunk that carries `error` (no HTTP status: the answer was a 200). */
const inStream = (error: Record<string, unknown>) => new APIError(undefined, error, undefined, new Headers());

describe('errors inside a stream', () => {
  it('reads a numeric code as the status an upstream reported, never as the type', () => {
    const error = mapOpenAIError(inStream({ code: 400, message: 'Token limit reached' }), 'openai.chat', 'Chat');
    expect(error).toMatchObject({ status: 400, type: undefined, isRetryable: false });
    expect(error.message).toContain('mid-stream (status 400 in the stream)');
    expect(error.message).toContain('Token limit reached');
    expect(mapOpenAIError(inStream({ code: 502, message: 'Upstream failed' }), 'openai.chat', 'Chat')).toMatchObject({
      status: 502,
      isRetryable: true,
    });
  });

  it('keeps string codes and types as the type', () => {
    expect(readErrorCode('rate_limit_exceeded', undefined)).toEqual({ type: 'rate_limit_exceeded', status: undefined });
    expect(readErrorCode('insufficient_quota', 'insufficient_quota')).toEqual({
      type: 'insufficient_quota',
      status: undefined,
    });
    expect(readErrorCode(400, 'invalid_request_error')).toEqual({ type: 'invalid_request_error', status: 400 });
    expect(readErrorCode(7, undefined)).toEqual({ type: undefined, status: undefined });
  });

  it('reads a Responses error event the same way', () => {
    expect(responseFailedError(429, 'Slow down')).toMatchObject({ status: 429, type: undefined, isRetryable: true });
    expect(responseFailedError('server_error', 'Oops')).toMatchObject({
      status: undefined,
      type: 'server_error',
      isRetryable: true,
    });
  });
});
