import { z } from 'zod';
import { quoteValue } from '../errors/quote-value.js';
import { ResumeError } from '../errors/resume-error.js';
import { type InputRequestJSON, isLabelledOption } from './input-request-json.js';
import { describeSecretMismatch } from './secret-schema-mismatch.js';

/**
 * Checks a map of answers against the requests a checkpoint waits on, before anything runs:
 * every answer names a waiting call, every waiting call has one, and each fits its request
 * (`false` declines any kind). A paused delegation may be left out as a whole, at any depth, when
 * something else is answered: none of its questions answered, it stays paused (`staysPaused`).
 */
export function validateAnswers(requests: readonly InputRequestJSON[], answers: unknown): Map<string, unknown> {
  if (typeof answers !== 'object' || answers === null || Array.isArray(answers)) {
    throw new ResumeError('unknown_call', 'Answers must be an object keyed by tool call id');
  }
  const byCall = new Map(requests.map((request) => [request.tool_call_id as string, request]));
  const given = new Map(Object.entries(answers));
  for (const callId of given.keys()) {
    if (!byCall.has(callId)) {
      throw new ResumeError(
        'unknown_call',
        `There is an answer for ${quoteValue(callId)}, but no call with that id is waiting for input`,
        {
          toolCallId: callId.slice(0, 200),
        },
      );
    }
  }
  const answered = [...given].filter(([, answer]) => answer !== undefined).map(([callId]) => callId);
  for (const [callId, request] of byCall) {
    if (!given.has(callId) || given.get(callId) === undefined) {
      if (answered.length > 0 && staysPaused(request, answered)) continue;
      throw new ResumeError('missing_answer', `No answer for ${describe(request)}, which is waiting for input`, {
        toolCallId: callId,
      });
    }
    checkAnswer(request, given.get(callId));
  }
  return given;
}

/**
 * Whether a delegated question may go unanswered: some delegation on its path (its id's leading
 * segments) has no answered question at all, so that delegation stays paused whole and asks again.
 */
function staysPaused(request: InputRequestJSON, answered: readonly string[]): boolean {
  const depth = request.path?.length ?? 0;
  const segments = (request.tool_call_id as string).split('/');
  for (let level = 1; level <= depth; level += 1) {
    const prefix = `${segments.slice(0, level).join('/')}/`;
    if (!answered.some((callId) => callId.startsWith(prefix))) return true;
  }
  return false;
}

function checkAnswer(request: InputRequestJSON, answer: unknown): void {
  if (answer === false) return;
  const callId = request.tool_call_id;
  if (request.kind === 'confirm' && typeof answer !== 'boolean') {
    throw new ResumeError('invalid_confirm', `${describe(request)} asks to confirm: answer true or false`, {
      toolCallId: callId,
    });
  }
  if (request.kind === 'text' && request.schema === undefined && typeof answer !== 'string') {
    // The answer stays out of the message (it may be long); its type is enough to fix it.
    throw new ResumeError(
      'invalid_text',
      `${describe(request)} asks for text: answer a string (or false to decline), not ${answer === null ? 'null' : Array.isArray(answer) ? 'an array' : typeof answer === 'object' ? 'an object' : `a ${typeof answer}`}`,
      { toolCallId: callId },
    );
  }
  if (request.kind === 'choice') {
    const values = (request.options ?? []).map((option) => (isLabelledOption(option) ? option.value : option));
    const written = JSON.stringify(answer);
    if (!values.some((value) => JSON.stringify(value) === written)) {
      // Quoted in part only: an answer can be as long as its sender likes.
      throw new ResumeError(
        'invalid_choice',
        `${describe(request)} takes one of ${quoteValue(values, 200)}, not ${quoteValue(answer)}`,
        {
          toolCallId: callId,
        },
      );
    }
  }
  if (request.schema !== undefined) {
    const result = schemaFor(request).safeParse(answer);
    if (!result.success) {
      // A secret answer stays out of the message, its keys and the paths through them too.
      const problem =
        request.kind === 'secret'
          ? describeSecretMismatch(result.error, answer, request.schema)
          : z.prettifyError(result.error);
      throw new ResumeError(
        'schema_mismatch',
        `The answer for ${describe(request)} does not fit its schema: ${problem}`,
        {
          toolCallId: callId,
        },
      );
    }
  }
}

function schemaFor(request: InputRequestJSON): z.ZodType {
  try {
    return z.fromJSONSchema(request.schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (error) {
    throw new ResumeError(
      'invalid_checkpoint',
      `The answer schema of ${describe(request)} is not a JSON Schema this release reads`,
      {
        toolCallId: request.tool_call_id as string,
        cause: error,
      },
    );
  }
}

function describe(request: InputRequestJSON): string {
  return `call ${request.tool_call_id} (${request.tool_name ?? 'unknown tool'})`;
}
