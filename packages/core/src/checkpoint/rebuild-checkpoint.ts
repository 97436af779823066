import type { GenerationEvent } from '../bus/events.js';
import { latestEpochs } from '../bus/latest-epochs.js';
import { earliestDeadline } from '../input-request/input-deadline.js';
import { CHECKPOINT_VERSION, type Checkpoint, type CompletedResult } from './checkpoint.js';
import { type KeysLike, signCheckpoint } from './sign-checkpoint.js';

/**
 * Replays a generation's event log into the checkpoint of its latest pause: the state is a pure
 * function of the log. Returns undefined when the log holds no pause, or when the generation
 * carried on after its last one. Of a run taken over by another worker only the latest epoch
 * counts (`latestEpochs`). With `checkpointKey` (keys, or a runtime's `keys`) the result is
 * signed for `params` (by default those the `started` event carries) and `audience`, as the
 * runtime that paused signed it; give it only events you trust, such as `bus.events()`, which
 * drops events not signed with the runtime's keys.
 */
export function rebuildCheckpoint(
  events: readonly GenerationEvent[],
  options: { checkpointKey?: KeysLike | undefined; params?: unknown; audience?: string | undefined } = {},
): Checkpoint | undefined {
  let base:
    | Omit<
        Checkpoint,
        | 'tool_turns'
        | 'tool_choice_cleared'
        | 'messages'
        | 'tool_call_turn_size'
        | 'completed_results'
        | 'input_requests'
        | 'approval_tool_calls'
        | 'approved_tool_calls'
        | 'mcp_tool_calls'
        | 'delegations'
        | 'claim_slot'
      >
    | undefined;
  let messages: unknown[] = [];
  let completed: Record<string, CompletedResult> = {};
  let latest: Checkpoint | undefined;
  let params: unknown;
  for (const event of latestEpochs(events)) {
    switch (event.event) {
      case 'started':
        params = event.data.params;
        base = {
          version: CHECKPOINT_VERSION,
          service: event.data.service,
          provider: event.data.provider,
          model: event.data.model,
          action_name: event.data.action_name,
          agent: event.agent,
          generation_id: event.generation_id,
          ...(event.data.conversation_id !== undefined && { conversation_id: event.data.conversation_id }),
        };
        messages = [...event.data.messages];
        completed = {};
        latest = undefined;
        break;
      case 'model_responded':
        messages = [...messages, ...event.data.messages];
        completed = {};
        latest = undefined;
        break;
      case 'tool_completed':
        completed = {
          ...completed,
          [event.data.tool_call_id]: {
            tool_name: event.data.tool_name,
            result: event.data.result,
            is_error: event.data.is_error,
          },
        };
        break;
      case 'input_requested':
        if (base === undefined) break;
        latest = {
          ...base,
          tool_turns: event.data.tool_turns,
          tool_choice_cleared: event.data.tool_choice_cleared,
          messages,
          tool_call_turn_size: event.data.tool_call_turn_size,
          completed_results: completed,
          input_requests: event.data.input_requests,
          approval_tool_calls: event.data.approval_tool_calls,
          approved_tool_calls: event.data.approved_tool_calls,
          mcp_tool_calls: event.data.mcp_tool_calls,
          ...(event.data.delegations !== undefined && { delegations: event.data.delegations }),
          claim_slot: event.data.claim_slot,
          ...(event.data.traceparent !== undefined && { traceparent: event.data.traceparent }),
          ...(options.audience !== undefined && { audience: options.audience }),
          ...(event.data.expires_at !== undefined && { expires_at: event.data.expires_at }),
        };
        // Not in the event: it is the earliest deadline of the questions, as the pause computed it.
        {
          const inputExpiresAt = earliestDeadline(event.data.input_requests);
          if (inputExpiresAt !== undefined) latest.input_expires_at = inputExpiresAt;
        }
        break;
      case 'tool_turns_exceeded':
      case 'completed':
      case 'failed':
        if (event.event !== 'failed') latest = undefined;
        break;
      case 'resumed':
      case 'tool_started':
      case 'input_expired':
        break;
      case 'cancelled':
        latest = undefined;
        break;
    }
  }
  if (latest === undefined) return undefined;
  const keys = options.checkpointKey;
  return signCheckpoint(latest, keys === undefined ? undefined : { keys, params: options.params ?? params });
}
