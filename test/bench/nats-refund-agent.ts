import { type AgentBase, defineAgent, type ProviderAdapter, type Runtime } from '@interlude/core';
import { type RecordedModelRequest, type ScriptedReply, scriptedProvider } from '@interlude/core/testing';
import { FINAL_TEXT } from './refund-chat-responder.js';
import { createRefundTools, type SideEffectListener } from './refund-tools.js';
import { createRefundWork, SUPPORT_INSTRUCTIONS } from './refund-work.js';

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
  const tools = createRefundTools(work, onSideEffect);
  return defineAgent({
    name: 'support',
    runtime,
    provider: inProcessRefundModel(),
    instructions: SUPPORT_INSTRUCTIONS,
    actions: {
      handle: ({ ticketId }: { ticketId: number }) => ({
        message: `Resolve support ticket ${ticketId}`,
        tools,
      }),
    },
  });
}
