import type { EventData } from '../bus/events.js';
import type { Checkpoint } from '../checkpoint/checkpoint.js';

/** What `input_expired` says: the deadline, and which calls the expiry declined or answered. */
export function inputExpiredData(
  checkpoint: Checkpoint,
  answers: ReadonlyMap<string, unknown>,
): EventData['input_expired'] {
  const declined = [...answers].filter(([, answer]) => answer === false).map(([callId]) => callId);
  return {
    input_expires_at: checkpoint.input_expires_at as string,
    declined_tool_calls: declined,
    answered_tool_calls: [...answers.keys()].filter((callId) => !declined.includes(callId)),
  };
}
