import { z } from 'zod';

/** The inputs both variants validate, so the bare loop does the same tool work as Interlude. */
export const lookupOrderInput = z.object({ order_id: z.number() });
export const issueRefundInput = z.object({ order_id: z.number(), amount: z.number() });

/** How often each tool body really ran: a cycle must add exactly one of each. */
export interface ToolRuns {
  lookup_order: number;
  issue_refund: number;
}

/** The side effects of the refund scenario, shared by every variant and counted. */
export function createRefundWork() {
  const runs: ToolRuns = { lookup_order: 0, issue_refund: 0 };
  return {
    runs,
    lookupOrder(input: z.infer<typeof lookupOrderInput>) {
      runs.lookup_order += 1;
      return { order_id: input.order_id, total: 120, status: 'delivered' };
    },
    issueRefund(input: z.infer<typeof issueRefundInput>) {
      runs.issue_refund += 1;
      return { refunded: input.amount };
    },
  };
}

export type RefundWork = ReturnType<typeof createRefundWork>;

export const SUPPORT_INSTRUCTIONS = 'You resolve support tickets.';
export const REFUND_PROMPT = 'Refund $30 on order 42?';
