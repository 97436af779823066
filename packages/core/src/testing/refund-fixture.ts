import { z } from 'zod';
import type { ActionPrompt } from '../agent/action.js';
import { InputRequest } from '../input-request/input-request.js';
import { tool } from '../tool/tool.js';
import type { ScriptedReply } from './scripted-provider.js';

/**
 * The refund scenario every suite uses: the model asks `lookup_order` and `issue_refund` in one
 * turn; the lookup runs, the refund asks for confirmation. Counters show how often each tool ran.
 */
export function createRefundScenario() {
  const runs = { lookup_order: 0, issue_refund: 0 };
  const refunds: Array<{ order_id: number; amount: number }> = [];
  const lookupOrder = tool({
    name: 'lookup_order',
    description: 'Find an order by id',
    input: z.object({ order_id: z.number() }),
    async run({ order_id }) {
      runs.lookup_order += 1;
      return { order_id, total: 120, status: 'delivered' };
    },
  });
  const issueRefund = tool({
    name: 'issue_refund',
    description: 'Refund part of an order',
    input: z.object({ order_id: z.number(), amount: z.number() }),
    async run({ order_id, amount }, ctx) {
      if (ctx.answer === undefined) return InputRequest.confirm(`Refund $${amount} on order ${order_id}?`);
      runs.issue_refund += 1;
      refunds.push({ order_id, amount });
      return { refunded: amount };
    },
  });
  const replies: ScriptedReply[] = [
    {
      text: 'Let me check the order.',
      toolCalls: [
        { id: 'call_lookup', name: 'lookup_order', arguments: { order_id: 42 } },
        { id: 'call_refund', name: 'issue_refund', arguments: { order_id: 42, amount: 30 } },
      ],
    },
    { text: 'I refunded $30 on order 42.' },
  ];
  const action = ({ ticketId }: { ticketId: number }): ActionPrompt => ({
    message: `Resolve support ticket ${ticketId}`,
    tools: [lookupOrder, issueRefund],
  });
  return { runs, refunds, lookupOrder, issueRefund, replies, action };
}
