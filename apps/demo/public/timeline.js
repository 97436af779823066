import { clip, clock, h } from './dom.js';

/** One line per transition of a generation, as the bus published it. */
export function renderTimeline(events) {
  if (events.length === 0) return h('p', { class: 'empty' }, 'Waiting for the worker to pick the job up…');
  return h(
    'ol',
    { class: 'timeline', 'data-timeline': true },
    events.map((event) =>
      h(
        'li',
        { class: `event event-${event.event}`, 'data-event': event.event },
        h('time', {}, clock(event.time)),
        h('span', { class: 'event-name' }, event.event.replaceAll('_', ' ')),
        h('span', { class: 'event-text' }, clip(describe(event), 240, `event:${event.id}`)),
      ),
    ),
  );
}

function describe(event) {
  const data = event.data;
  switch (event.event) {
    case 'started':
      return `${event.agent}.${event.action} on ${data.model} (${data.provider})`;
    case 'model_responded': {
      const calls = data.tool_calls.map((call) => `${call.name}(${JSON.stringify(call.arguments)})`);
      return [data.text, calls.length > 0 ? `calls ${calls.join(', ')}` : ''].filter(Boolean).join(' · ');
    }
    case 'tool_started':
      return data.attempt > 1 ? `${data.tool_name} (again: its outcome was unknown)` : data.tool_name;
    case 'tool_completed': {
      const result = typeof data.result === 'string' ? data.result : JSON.stringify(data.result);
      return `${data.tool_name} → ${data.is_error ? 'error ' : ''}${result}`;
    }
    case 'input_requested':
      return data.input_requests.map((request) => `${request.kind}: ${request.prompt}`).join(' · ');
    case 'resumed': {
      const declined = data.declined_tool_calls.length > 0 ? `, declined ${data.declined_tool_calls.join(', ')}` : '';
      return `answered ${data.answered_tool_calls.join(', ') || 'nothing'}${declined}`;
    }
    case 'completed':
      return data.text;
    case 'failed':
      return data.error.message;
    case 'input_expired':
      return `nobody answered by ${clock(data.input_expires_at)}: ${[
        data.unanswered_tool_calls.length > 0 ? `unanswered ${data.unanswered_tool_calls.join(', ')}` : '',
        data.answered_tool_calls.length > 0 ? `answered ${data.answered_tool_calls.join(', ')} as set` : '',
      ]
        .filter(Boolean)
        .join(', ')}`;
    case 'cancelled':
      return `cancelled: ${data.reason}`;
    case 'tool_turns_exceeded':
      return `stopped after ${data.tool_turns} tool turns (limit ${data.max_tool_turns})`;
    default:
      return '';
  }
}
