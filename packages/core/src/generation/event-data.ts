import type { EventData, EventName } from '../bus/events.js';
import type { GenerationContext } from './generation-context.js';

export interface EventExtras {
  /** The opening user turn, for `started`. */
  traceparent: string | undefined;
  /** For `started`: the action's params. */
  params?: unknown;
  /** For `resumed`: which calls were answered and which declined. */
  answers?: ReadonlyMap<string, unknown>;
  /** For `input_requested`: the slot a resume of this pause claims. */
  claimSlot?: number | undefined;
  /** For `input_requested`: when its checkpoint expires, if it does. */
  expiresAt?: string | undefined;
}

/**
 * The payload of each transition, read from the machine context. Together the events of a
 * generation hold everything its checkpoint holds, so `rebuildCheckpoint` can replay them.
 */
export function eventData(name: EventName, context: GenerationContext, extras: EventExtras): EventData[EventName] {
  switch (name) {
    case 'started':
      return {
        service: context.identity.service,
        provider: context.identity.provider,
        model: context.identity.model,
        action_name: context.identity.actionName,
        messages: context.messages,
        params: jsonFormOf(extras.params),
        ...(extras.traceparent !== undefined && { traceparent: extras.traceparent }),
        ...(context.identity.conversationId !== undefined && { conversation_id: context.identity.conversationId }),
      } satisfies EventData['started'];
    case 'model_responded': {
      const response = context.lastResponse;
      return {
        messages: context.messages.slice(response?.reportFrom ?? context.reportedTo, context.reportedTo),
        tool_calls: response?.toolCalls ?? [],
        text: response?.text ?? '',
        finish_reason: response?.finishReason ?? 'other',
        ...(response?.rawFinishReason !== undefined && { raw_finish_reason: response.rawFinishReason }),
        ...(response?.usage !== undefined && { usage: response.usage }),
        ...(response?.responseId !== undefined && { response_id: response.responseId }),
        tool_turns: context.toolTurns,
        tool_choice_cleared: context.toolChoiceCleared,
        ...(context.decision === 'continue' && { continuation: true as const }),
      } satisfies EventData['model_responded'];
    }
    case 'input_requested':
      return {
        input_requests: context.inputRequests,
        tool_call_turn_size: context.toolCallTurnSize,
        approval_tool_calls: context.approvalToolCalls,
        approved_tool_calls: context.approvedToolCalls,
        mcp_tool_calls: context.mcpToolCalls,
        ...(Object.keys(context.delegations).length > 0 && { delegations: context.delegations }),
        tool_turns: context.toolTurns,
        tool_choice_cleared: context.toolChoiceCleared,
        claim_slot: extras.claimSlot ?? 0,
        ...(extras.traceparent !== undefined && { traceparent: extras.traceparent }),
        ...(extras.expiresAt !== undefined && { expires_at: extras.expiresAt }),
      } satisfies EventData['input_requested'];
    case 'resumed': {
      const answers = extras.answers ?? new Map<string, unknown>();
      return {
        answered_tool_calls: [...answers.keys()],
        declined_tool_calls: [...answers].filter(([, answer]) => answer === false).map(([callId]) => callId),
        ...(extras.traceparent !== undefined && { traceparent: extras.traceparent }),
      } satisfies EventData['resumed'];
    }
    case 'tool_turns_exceeded':
      return {
        tool_turns: context.toolTurns,
        max_tool_turns: context.limits.maxToolTurns,
        messages: context.messages.slice(context.reportedTo),
      };
    case 'completed':
      return {
        text: context.lastResponse?.turnText ?? '',
        finish_reason: context.lastResponse?.finishReason ?? 'other',
        ...(context.lastResponse?.rawFinishReason !== undefined && {
          raw_finish_reason: context.lastResponse.rawFinishReason,
        }),
      } satisfies EventData['completed'];
    case 'failed':
      return { error: context.error ?? { name: 'Error', message: 'unknown failure' } } satisfies EventData['failed'];
    case 'tool_started':
    case 'tool_completed':
      throw new Error(`${name} is published by runTools, one per call`);
    case 'input_expired':
    case 'cancelled':
      throw new Error(`${name} is published outside the machine, by the run's start or by runtime.cancel()`);
  }
}

/**
 * Params as JSON keeps them (undefined is null), the form a checkpoint's signature covers. Params
 * with no JSON form (a cycle, a BigInt) are left out as null: no checkpoint can be signed for them.
 */
function jsonFormOf(params: unknown): unknown {
  if (params === undefined || params === null || typeof params === 'string' || typeof params === 'boolean') {
    return params ?? null;
  }
  try {
    return JSON.parse(JSON.stringify(params)) as unknown;
  } catch {
    return null;
  }
}
