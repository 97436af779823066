import { InputRequest, tool } from '@interlude/core';
import { issueRefundInput, lookupOrderInput, type RefundWork } from './refund-work.js';

/** Which tool body ran, for which generation: how the driver proves nothing ran twice across processes. */
export type SideEffectListener = (tool: 'lookup_order' | 'issue_refund', generationId: string) => void;

/**
 * The refund scenario's two tools as a user writes them with Interlude: `lookup_order` runs,
 * `issue_refund` asks to confirm first. Every Interlude variant of the benchmarks uses these,
 * so they differ only in provider and bus; `onSideEffect` hears each tool body that really runs.
 */
export function createRefundTools(work: RefundWork, onSideEffect: SideEffectListener = () => undefined) {
  const lookupOrder = tool({
    name: 'lookup_order',
    description: 'Find an order by id',
    input: lookupOrderInput,
    async run(input, context) {
      onSideEffect('lookup_order', context.generationId);
      return work.lookupOrder(input);
    },
  });
  const issueRefund = tool({
    name: 'issue_refund',
    description: 'Refund part of an order',
    input: issueRefundInput,
    async run(input, context) {
      if (context.answer === undefined)
        return InputRequest.confirm(`Refund $${input.amount} on order ${input.order_id}?`);
      onSideEffect('issue_refund', context.generationId);
      return work.issueRefund(input);
    },
  });
  return [lookupOrder, issueRefund];
}
