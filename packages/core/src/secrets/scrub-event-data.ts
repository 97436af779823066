import type { EventData, EventName } from '../bus/events.js';
import type { Scrubber } from './scrub.js';

/**
 * An event's payload with every secret replaced where one can arrive: what tools return, ask and
 * throw. Identifiers (tool call ids, tool names, an input request's kind) existed before any
 * secret was answered, and the model's own output comes from a model that never saw one, so both
 * are kept verbatim: a secret that merely equals one of them (a PIN typed as `confirm`) still
 * leaves an event log that subscribers can read and that `rebuildCheckpoint` turns into the very
 * checkpoint the pause returned.
 */
export function scrubEventData<Name extends EventName>(
  scrubber: Scrubber,
  name: Name,
  data: EventData[Name],
): EventData[Name] {
  if (scrubber.isEmpty) return data;
  switch (name) {
    case 'input_requested': {
      const { input_requests, approval_tool_calls, approved_tool_calls, mcp_tool_calls, ...rest } =
        data as EventData['input_requested'];
      return {
        ...scrubber.value(rest),
        input_requests: input_requests.map((request) => scrubber.inputRequest(request)),
        approval_tool_calls,
        approved_tool_calls,
        mcp_tool_calls,
      } satisfies EventData['input_requested'] as EventData[Name];
    }
    case 'tool_completed': {
      const { tool_call_id, tool_name, ...rest } = data as EventData['tool_completed'];
      return {
        ...scrubber.value(rest),
        tool_call_id,
        tool_name,
      } satisfies EventData['tool_completed'] as EventData[Name];
    }
    case 'model_responded':
      // The model's message and the tool results it follows; the results were scrubbed when their
      // tools finished, and the checkpoint holds the model's message exactly as it was sent.
      return data;
    case 'resumed':
      // Only the ids of the answered and declined calls, and a trace id.
      return data;
    default:
      return scrubber.value(data);
  }
}
