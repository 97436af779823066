import { defineAgent, type Runtime } from '@interlude/core';
import type { AgentBase } from '@interlude/core/internal';
import { openaiChat } from '@interlude/providers/openai-chat';
import { ticketMessage } from './refund-chat-responder.js';
import { createRefundTools } from './refund-tools.js';
import { createRefundWork, type RefundWork, SUPPORT_INSTRUCTIONS } from './refund-work.js';

export interface TicketParams {
  ticketId: number;
  /** Single lookups before the refund turn: how the checkpoint benchmark grows a conversation. */
  lookups?: number;
}

/**
 * The refund scenario as a user writes it with Interlude, on `openaiChat()` pointed at the
 * benchmark's wire server: `lookup_order` runs, `issue_refund` asks to confirm first.
 */
export function defineChatRefundAgent(
  runtime: Runtime,
  baseURL: string,
  work: RefundWork = createRefundWork(),
): { agent: AgentBase; work: RefundWork } {
  const tools = createRefundTools(work);
  const agent = defineAgent({
    name: 'support',
    runtime,
    provider: openaiChat({ model: 'gpt-4.1-bench', baseURL, apiKey: 'bench', maxRetries: 0 }),
    instructions: SUPPORT_INSTRUCTIONS,
    actions: {
      handle: ({ ticketId, lookups = 0 }: TicketParams) => ({
        message: ticketMessage(ticketId, lookups),
        tools,
        maxToolTurns: lookups + 5,
      }),
    },
  });
  return { agent, work };
}
