import {
  type ContextBinding,
  defineAgent,
  InputRequest,
  type ProviderAdapter,
  type Runtime,
  tool,
} from '@interlude/core';
import { z } from 'zod';
import { findTicket, ticketMessage } from './tickets.js';

/** Orders the refund tickets talk about; a real desk would call its shop's API here. */
const ORDERS: Record<number, { item: string; total: number; status: string }> = {
  1042: { item: 'Blender Pro 3', total: 129, status: 'delivered, box damaged' },
  2077: { item: 'Watercolour course (not started)', total: 45, status: 'paid' },
};

/** Refunds a person approved, newest last: what the desk would send to its payment provider. */
export const refundsIssued: Array<{ order_id: number; amount: number }> = [];

const lookupOrder = tool({
  name: 'lookup_order',
  description: 'Find an order by id',
  input: z.object({ order_id: z.number() }),
  async run({ order_id }) {
    const order = ORDERS[order_id];
    if (order === undefined) throw new Error(`No order ${order_id}`);
    return { order_id, ...order };
  },
});

/** Orders whose refund question expires: nobody answering in time means no refund. */
const EXPIRING_ORDERS: ReadonlySet<number> = new Set([2077]);

/**
 * Asks a person before any money moves: the generation pauses here until someone confirms. The
 * course refund's question waits `expiryMs` only, then expires unanswered (the expiring story).
 */
function issueRefund(expiryMs: number) {
  return tool({
    name: 'issue_refund',
    description: 'Refund part of an order. A person confirms every refund.',
    input: z.object({ order_id: z.number(), amount: z.number() }),
    async run({ order_id, amount }, ctx) {
      if (ctx.answer === undefined) {
        const expiry = EXPIRING_ORDERS.has(order_id) ? { expiresIn: expiryMs } : {};
        return InputRequest.confirm(`Refund $${amount} on order ${order_id}?`, expiry);
      }
      refundsIssued.push({ order_id, amount });
      return { refunded: amount, order_id };
    },
  });
}

/**
 * The refund story: the agent looks the order up and proposes a refund, which waits for a
 * person's yes or no. Approving runs the refund; declining gives the model
 * `{"error":"declined by user"}` and the refund never runs. The course refund (order 2077) expires
 * when nobody answers within `expiryMs`: the model reads `{"error":"no answer in time"}`.
 */
export function createRefundAgent(options: {
  runtime: Runtime;
  provider: ProviderAdapter;
  context: ContextBinding;
  expiryMs: number;
}) {
  const refund = issueRefund(options.expiryMs);
  return defineAgent({
    name: 'support',
    runtime: options.runtime,
    provider: options.provider,
    context: options.context,
    instructions:
      'You resolve support tickets. Look the order up, then refund what the customer asks for with issue_refund.',
    actions: {
      refund: ({ ticketId }: { ticketId: number }) => ({
        message: `${ticketMessage(findTicket(ticketId))} (order ${findTicket(ticketId).details['order_id']})`,
        tools: [lookupOrder, refund],
      }),
    },
  });
}
