import { hash } from 'node:crypto';
import type { ResolvedPrompt } from '../agent/action.js';
import type { CheckpointState } from '../checkpoint/checkpoint-defaults.js';
import type { ProviderAdapter, ToolCall } from '../provider/provider-adapter.js';
import { type GenerationContext, startingContext } from './generation-context.js';

/** The machine context of a checked checkpoint, with the resumed action's limits. */
export function contextFromCheckpoint(
  checkpoint: CheckpointState,
  turnCalls: ToolCall[],
  prompt: ResolvedPrompt,
  adapter: ProviderAdapter,
): GenerationContext {
  return startingContext({
    identity: {
      agent: checkpoint.agent,
      generationId: checkpoint.generation_id,
      actionName: checkpoint.action_name,
      service: checkpoint.service,
      provider: checkpoint.provider,
      model: checkpoint.model,
      ...(checkpoint.conversation_id !== undefined && { conversationId: checkpoint.conversation_id }),
    },
    limits: { maxToolTurns: prompt.maxToolTurns, maxContinuations: adapter.maxContinuations ?? 0 },
    messages: checkpoint.messages,
    toolTurns: checkpoint.tool_turns,
    toolChoice: prompt.toolChoice,
    toolChoiceCleared: checkpoint.tool_choice_cleared,
    turnCalls,
    toolCallTurnSize: checkpoint.tool_call_turn_size,
    completedResults: checkpoint.completed_results,
    inputRequests: checkpoint.input_requests,
    approvalToolCalls: checkpoint.approval_tool_calls,
    approvedToolCalls: checkpoint.approved_tool_calls,
    mcpToolCalls: checkpoint.mcp_tool_calls,
    delegations: checkpoint.delegations,
  });
}

/**
 * Names the run that resumes a checkpoint, from its canonical JSON (`canonicalCheckpoint`): the
 * same checkpoint always gives the same name, so a replay reuses its event ids.
 */
export function runKeyOf(canonical: string): string {
  // One-shot `hash()` (Node 20.12+): no Hash object per resume.
  return hash('sha256', canonical, 'hex').slice(0, 16);
}
