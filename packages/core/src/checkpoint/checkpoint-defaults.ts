import type { Checkpoint, CompletedResult } from './checkpoint.js';

/**
 * A checkpoint with every field it may leave out filled in: what a resume reads. The
 * signature still covers the checkpoint as it was handed in, which is what claims compare and
 * jobs carry; this view is never signed, stored or sent.
 */
export type CheckpointState = Checkpoint &
  Required<
    Pick<
      Checkpoint,
      | 'tool_choice_cleared'
      | 'tool_call_turn_size'
      | 'approval_tool_calls'
      | 'approved_tool_calls'
      | 'mcp_tool_calls'
      | 'delegations'
    >
  > & { completed_results: Record<string, CompletedResult> };

/** The checkpoint with its defaults filled in. */
export function withCheckpointDefaults(checkpoint: Checkpoint): CheckpointState {
  const completed: Record<string, CompletedResult> = {};
  for (const callId of Object.keys(checkpoint.completed_results)) {
    const stored = checkpoint.completed_results[callId] as Checkpoint['completed_results'][string];
    completed[callId] = { tool_name: stored.tool_name, result: stored.result, is_error: stored.is_error ?? false };
  }
  const state = { ...checkpoint, completed_results: completed } as CheckpointState;
  state.tool_choice_cleared ??= false;
  state.tool_call_turn_size ??= 1;
  state.approval_tool_calls ??= [];
  state.approved_tool_calls ??= [];
  state.mcp_tool_calls ??= [];
  state.delegations ??= {};
  return state;
}

/**
 * The written form: every field that holds its default left out (`claim_slot` is not one of them:
 * it is always written). A paused refund is a few hundred bytes of state beside its conversation,
 * and those defaults were 150 of them.
 */
export function omitCheckpointDefaults(checkpoint: Checkpoint): Checkpoint {
  const {
    tool_choice_cleared,
    tool_call_turn_size,
    approval_tool_calls,
    approved_tool_calls,
    mcp_tool_calls,
    delegations,
    completed_results,
    ...rest
  } = checkpoint;
  const results: Checkpoint['completed_results'] = {};
  for (const [callId, { is_error, ...stored }] of Object.entries(completed_results)) {
    results[callId] = is_error === true ? { ...stored, is_error } : stored;
  }
  return {
    ...rest,
    completed_results: results,
    ...(tool_choice_cleared === true && { tool_choice_cleared }),
    ...(tool_call_turn_size !== undefined && tool_call_turn_size !== 1 && { tool_call_turn_size }),
    ...(approval_tool_calls !== undefined && approval_tool_calls.length > 0 && { approval_tool_calls }),
    ...(approved_tool_calls !== undefined && approved_tool_calls.length > 0 && { approved_tool_calls }),
    ...(mcp_tool_calls !== undefined && mcp_tool_calls.length > 0 && { mcp_tool_calls }),
    ...(delegations !== undefined && Object.keys(delegations).length > 0 && { delegations }),
  };
}
