import { type AgentBase, defineAgent, InputRequest, type ProviderAdapter, type Runtime, tool } from '@interlude/core';
import { type RecordedModelRequest, type ScriptedReply, scriptedProvider } from '@interlude/core/testing';
import { FINAL_TEXT } from './refund-chat-responder.js';
import { createRefundWork, issueRefundInput, lookupOrderInput, SUPPORT_INSTRUCTIONS } from './refund-work.js';

/** Which tool body ran, for which generation: how the driver proves nothing ran twice across processes. */
export type SideEffectListener = (tool: 'lookup_order' | 'issue_refund', generationId: string) => void;

function answer(request: RecordedModelRequest): ScriptedReply {
  if (JSON.stringify(request.messages).includes('"tool_use_id":"call_refund"')) return { text: FINAL_TEXT };
  return {
    text: 'Let me check the order.',
    toolCalls: [
      { id: 'call_lookup', name: 'lookup_order', arguments: { order_id: 42 } },
      { id: 'call_refund', name: 'issue_refund', arguments: { order_id: 42, amount: 30 } },
    ],
  };
}

/**
 * The refund scenario's model in process (core's scripted provider, answering from the
 * conversation, so any process can run any step), so the NATS benchmarks measure the bus and
 * the framework, not HTTP. It forgets each request once answered: a long run must not grow.
 */
function inProcessRefundModel(): ProviderAdapter {
  const scripted = scriptedProvider();
  return {
    ...scripted,
    async call(request, options) {
      scripted.push(answer);
      try {
        return await scripted.call(request, options);
      } finally {
        scripted.requests.length = 0;
      }
    },
  };
}

/** The `support` agent every process of the NATS benchmarks defines the same way. */
export function defineNatsRefundAgent(runtime: Runtime, onSideEffect: SideEffectListener): AgentBase {
  const work = createRefundWork();
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
  return defineAgent({
    name: 'support',
    runtime,
    provider: inProcessRefundModel(),
    instructions: SUPPORT_INSTRUCTIONS,
    actions: {
      handle: ({ ticketId }: { ticketId: number }) => ({
        message: `Resolve support ticket ${ticketId}`,
        tools: [lookupOrder, issueRefund],
      }),
    },
  });
}
