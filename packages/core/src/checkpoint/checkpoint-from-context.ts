import type { GenerationContext } from '../generation/generation-context.js';
import { CHECKPOINT_VERSION, type Checkpoint } from './checkpoint.js';
import { signCheckpoint } from './sign-checkpoint.js';

/**
 * The checkpoint of a paused generation: its machine context as snake_case JSON, signed when a
 * key is set. `claimSlot` is the claim-log slot its resume will claim.
 */
export function checkpointFromContext(
  context: GenerationContext,
  claimSlot: number,
  traceparent: string | undefined,
  key: string | undefined,
): Checkpoint {
  const { identity } = context;
  return signCheckpoint(
    {
      version: CHECKPOINT_VERSION,
      service: identity.service,
      provider: identity.provider,
      model: identity.model,
      action_name: identity.actionName,
      tool_turns: context.toolTurns,
      tool_choice_cleared: context.toolChoiceCleared,
      messages: context.messages,
      tool_call_turn_size: context.toolCallTurnSize,
      completed_results: context.completedResults,
      input_requests: context.inputRequests,
      approval_tool_calls: context.approvalToolCalls,
      approved_tool_calls: context.approvedToolCalls,
      mcp_tool_calls: context.mcpToolCalls,
      agent: identity.agent,
      generation_id: identity.generationId,
      claim_slot: claimSlot,
      ...(traceparent !== undefined && { traceparent }),
    },
    key,
  );
}
