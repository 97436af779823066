import type { GenerationEvent } from '@interlude/core';
import type { PendingQuestion } from '../server/pending-questions.js';

/** One transition as one terminal line: time, event name, what happened. */
export function formatEvent(event: GenerationEvent): string {
  const time = event.time.slice(11, 23);
  return `${time}  ${event.event.padEnd(20)} ${describe(event)}`;
}

function describe(event: GenerationEvent): string {
  switch (event.event) {
    case 'started':
      return `${event.agent}.${event.action} on ${event.data.model}`;
    case 'model_responded': {
      const calls = event.data.tool_calls.map((call) => `${call.name}(${JSON.stringify(call.arguments)})`);
      return [event.data.text, ...calls].filter(Boolean).join(' | ');
    }
    case 'tool_started':
      return `${event.data.tool_name}${event.data.attempt > 1 ? ` (attempt ${event.data.attempt}: its outcome was unknown)` : ''}`;
    case 'tool_completed':
      return `${event.data.tool_name} -> ${JSON.stringify(event.data.result)}`;
    case 'input_requested':
      return event.data.input_requests
        .map((request) => `[${request.tool_call_id}] ${request.kind}: ${request.prompt}`)
        .join(' | ');
    case 'resumed':
      return `answered ${event.data.answered_tool_calls.join(', ')}${
        event.data.declined_tool_calls.length > 0 ? `; declined ${event.data.declined_tool_calls.join(', ')}` : ''
      }`;
    case 'completed':
      return event.data.text;
    case 'failed':
      return event.data.error.message;
    case 'tool_turns_exceeded':
      return `${event.data.tool_turns} of ${event.data.max_tool_turns} tool turns used`;
    case 'input_expired':
      return `nobody answered by ${event.data.input_expires_at}`;
    case 'cancelled':
      return `cancelled: ${event.data.reason}`;
  }
}

/** One open question as the `pending` command lists it, with what `answer` needs. */
export function formatQuestion(question: PendingQuestion): string {
  const options =
    question.kind === 'choice'
      ? ` options: ${(question.options ?? [])
          .map((option) =>
            typeof option === 'object' && option !== null && !Array.isArray(option) && 'value' in option
              ? String(option.value)
              : String(option),
          )
          .join(' | ')}`
      : question.kind === 'confirm'
        ? ' (yes | no)'
        : '';
  const kind = question.approval ? 'approval' : question.kind;
  return `${question.generationId}  ${question.toolCallId}  ${kind.padEnd(8)} ${question.agent}: ${question.prompt}${options}`;
}
