import type { EventData, EventName } from '../bus/events.js';
import type { Scrubber } from './scrub.js';

/**
 * An event's payload with every secret replaced where one can arrive: in what tools return, ask
 * and throw. The rest is kept verbatim: ids, names, kinds, counters and finish reasons existed
 * before any secret was answered or are the framework's own, and the model's messages and text
 * come from a model that never saw one (the tool results among them were scrubbed when their tools
 * finished). So a secret that merely equals one of them (a PIN typed as `confirm`, `1` or `stop`)
 * still leaves an event log that subscribers can read and that `rebuildCheckpoint` turns into the
 * very checkpoint the pause returned.
 *
 * Tool results, questions and failures were already scrubbed where they were made (dispatch,
 * `scrubError`); this second pass is the publisher's guard against a path that forgot, and costs
 * nothing in the usual generation, which has no secret (`isEmpty`).
 */
export function scrubEventData<Name extends EventName>(
  scrubber: Scrubber,
  name: Name,
  data: EventData[Name],
): EventData[Name] {
  if (scrubber.isEmpty) return data;
  switch (name) {
    case 'started': {
      // A generation started inside a tool body may be handed its caller's secret answer as params.
      const started = data as EventData['started'];
      return { ...started, params: scrubber.value(started.params) } as EventData[Name];
    }
    case 'tool_completed': {
      const completed = data as EventData['tool_completed'];
      return { ...completed, result: scrubber.value(completed.result) } as EventData[Name];
    }
    case 'input_requested': {
      const requested = data as EventData['input_requested'];
      return {
        ...requested,
        input_requests: requested.input_requests.map((request) => scrubber.inputRequest(request)),
      } as EventData[Name];
    }
    case 'failed':
      return scrubber.value(data);
    default:
      return data;
  }
}
