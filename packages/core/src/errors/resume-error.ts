import { InterludeError } from './interlude-error.js';

const marker = Symbol.for('interlude.error.resume');

/** Every reason a resume is refused. Stable: callers and the HTTP layer switch on these. */
export type ResumeErrorCode =
  | 'invalid_checkpoint'
  | 'unsupported_version'
  | 'no_tool_call_turn'
  | 'unknown_call'
  | 'missing_answer'
  | 'invalid_confirm'
  | 'invalid_choice'
  | 'schema_mismatch'
  | 'agent_mismatch'
  | 'action_mismatch'
  | 'provider_mismatch'
  | 'model_mismatch'
  | 'turn_mismatch'
  | 'bad_signature'
  | 'audience_mismatch'
  | 'expired'
  | 'cancelled'
  | 'invalid_text'
  | 'already_resumed'
  | 'not_found'
  | 'secret_in_job'
  | 'secret_option';

/**
 * A resume refused before anything ran: no tool was called, no request was sent and the
 * stored checkpoint is untouched. `toolCallId` names the call at fault when there is one.
 */
export class ResumeError extends InterludeError {
  readonly [marker] = true;
  declare readonly code: ResumeErrorCode;
  readonly toolCallId: string | undefined;

  constructor(code: ResumeErrorCode, message: string, options?: { toolCallId?: string | undefined; cause?: unknown }) {
    super(code, message, options);
    this.name = 'ResumeError';
    this.toolCallId = options?.toolCallId;
  }

  static override isInstance(error: unknown): error is ResumeError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
