import type { GenerationContext } from '../generation/generation-context.js';
import { earliestDeadline } from '../input-request/input-deadline.js';
import type { CheckpointKeys } from '../trust/checkpoint-keys.js';
import { CHECKPOINT_VERSION, type Checkpoint } from './checkpoint.js';
import { signCheckpoint } from './sign-checkpoint.js';

/** What a run seals its checkpoints with: the runtime's keys, the action's params, the deployment and the TTL. */
export interface CheckpointSeal {
  /** Undefined when signing is off: the checkpoint is written unsigned. */
  keys: CheckpointKeys | undefined;
  params: unknown;
  audience: string | undefined;
  ttlMs: number | undefined;
}

/**
 * The checkpoint of a paused generation: its machine context as snake_case JSON, signed when the
 * runtime has keys. `claimSlot` is the claim-log slot its resume will claim.
 */
export function checkpointFromContext(
  context: GenerationContext,
  claimSlot: number,
  traceparent: string | undefined,
  seal: CheckpointSeal,
): Checkpoint {
  const { identity } = context;
  const checkpoint: Checkpoint = {
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
    delegations: context.delegations,
    agent: identity.agent,
    generation_id: identity.generationId,
    claim_slot: claimSlot,
    ...(traceparent !== undefined && { traceparent }),
    ...(identity.conversationId !== undefined && { conversation_id: identity.conversationId }),
    ...(seal.audience !== undefined && { audience: seal.audience }),
    ...(seal.ttlMs !== undefined && { expires_at: new Date(Date.now() + seal.ttlMs).toISOString() }),
  };
  const inputExpiresAt = earliestDeadline(context.inputRequests);
  if (inputExpiresAt !== undefined) checkpoint.input_expires_at = inputExpiresAt;
  return signCheckpoint(checkpoint, seal.keys === undefined ? undefined : { keys: seal.keys, params: seal.params });
}
