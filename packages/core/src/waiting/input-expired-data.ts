import type { EventData } from '../bus/events.js';
import type { Checkpoint } from '../checkpoint/checkpoint.js';
import { unansweredAtDeadline } from '../input-request/input-deadline.js';

/** What `input_expired` says: the deadline, the calls nobody answered, and those given their `on_expiry` answer. */
export function inputExpiredData(
  checkpoint: Checkpoint,
  answers: ReadonlyMap<string, unknown>,
): EventData['input_expired'] {
  const unanswered = unansweredAtDeadline(checkpoint.input_requests);
  return {
    input_expires_at: checkpoint.input_expires_at as string,
    unanswered_tool_calls: [...answers.keys()].filter((callId) => unanswered.has(callId)),
    answered_tool_calls: [...answers.keys()].filter((callId) => !unanswered.has(callId)),
  };
}
