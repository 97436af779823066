import { InterludeError, ResumeError, TrustError } from '@interlude/core';

/** The gateway's own refusals, beside the `ResumeError` and `TrustError` codes it passes on. */
export type GatewayErrorCode =
  | 'invalid_request'
  | 'missing_credential'
  | 'invalid_credential'
  | 'insufficient_scope'
  | 'not_found'
  | 'payload_too_large'
  | 'rate_limited'
  | 'not_ready'
  | 'internal_error';

/** A refusal with the HTTP status it is answered with. */
export class GatewayError extends InterludeError {
  declare readonly code: GatewayErrorCode;
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(status: number, code: GatewayErrorCode, message: string, headers: Record<string, string> = {}) {
    super(code, message);
    this.name = 'GatewayError';
    this.status = status;
    this.headers = headers;
  }
}

/** The status of each refusal a resume or a token check can give. */
const STATUS_OF_CODE: Record<string, number> = {
  not_found: 404,
  already_resumed: 409,
  cancelled: 409,
  expired: 410,
  expired_answer_token: 410,
  invalid_answer_token: 401,
  answer_token_mismatch: 403,
  agent_mismatch: 409,
  action_mismatch: 409,
  provider_mismatch: 409,
  model_mismatch: 409,
  turn_mismatch: 409,
  bad_signature: 409,
  audience_mismatch: 409,
  invalid_checkpoint: 409,
  unsupported_version: 409,
  no_tool_call_turn: 409,
};

/**
 * What an error is answered with: `{ error: { code, message } }` and its status. A `ResumeError` or
 * `TrustError` keeps its code (400 for an answer the question does not take, and see
 * `STATUS_OF_CODE`); anything else is a 500 whose message says nothing of the request.
 */
export function errorResponse(error: unknown): {
  status: number;
  body: { error: { code: string; message: string; tool_call_id?: string } };
  headers: Record<string, string>;
} {
  if (error instanceof GatewayError) {
    return {
      status: error.status,
      body: { error: { code: error.code, message: error.message } },
      headers: error.headers,
    };
  }
  if (ResumeError.isInstance(error) || TrustError.isInstance(error)) {
    const toolCallId = ResumeError.isInstance(error) ? error.toolCallId : undefined;
    return {
      status: STATUS_OF_CODE[error.code] ?? (ResumeError.isInstance(error) ? 400 : 403),
      body: {
        error: {
          code: error.code,
          message: error.message,
          ...(toolCallId !== undefined && { tool_call_id: toolCallId }),
        },
      },
      headers: {},
    };
  }
  if (error instanceof TypeError) {
    // Core refuses bad input with a TypeError naming the field; the gateway's own bugs are not TypeErrors it throws.
    return { status: 400, body: { error: { code: 'invalid_request', message: error.message } }, headers: {} };
  }
  return {
    status: 500,
    body: { error: { code: 'internal_error', message: 'The gateway failed to handle the request' } },
    headers: {},
  };
}
