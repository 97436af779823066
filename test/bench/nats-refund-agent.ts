import { defineAgent, type ProviderAdapter, type Runtime } from '@interlude/core';
import type { AgentBase } from '@interlude/core/internal';
import type { ProviderMessage, ToolCall } from '@interlude/core/provider';
import { scriptedProvider } from '@interlude/core/testing';
import { FINAL_TEXT } from './refund-chat-responder.js';
import { createRefundTools, type SideEffectListener } from './refund-tools.js';
import { createRefundWork, SUPPORT_INSTRUCTIONS } from './refund-work.js';

const REFUND_CALL = 'call_refund';

/** The model's first turn: look the order up and refund it, in parallel (fresh objects each call). */
function refundCalls(): ToolCall[] {
  return [
    { id: 'call_lookup', name: 'lookup_order', arguments: { order_id: 42 } },
    { id: REFUND_CALL, name: 'issue_refund', arguments: { order_id: 42, amount: 30 } },
  ];
}

/** Whether the conversation's last message carries the refund's result (Anthropic `tool_result`). */
function refundAnswered(messages: readonly ProviderMessage[]): boolean {
  const content = (messages.at(-1) as { content?: unknown } | undefined)?.content;
  return (
    Array.isArray(content) &&
    content.some((block: { type?: unknown; tool_use_id?: unknown }) => {
      return block.type === 'tool_result' && block.tool_use_id === REFUND_CALL;
    })
  );
}

/**
 * The refund scenario's model in process, so the NATS benchmarks measure the bus and the
 * framework, not HTTP. It answers from the conversation it is sent (any process can run any
 * step): the final answer once the last message holds the refund's result, else the two calls.
 * It stands in for a model server, so it only reads the last message: no copy of the request,
 * no serialization. Messages are in the Anthropic shape of core's scripted provider.
 */
function inProcessRefundModel(): ProviderAdapter {
  // The scripted provider's message mapping, with a model that reads the conversation instead.
  const { call: _scriptedCall, push: _push, ...mapping } = scriptedProvider();
  let calls = 0;
  return {
    ...mapping,
    async call(request) {
      calls += 1;
      const final = refundAnswered(request.messages);
      const toolCalls = final ? [] : refundCalls();
      const text = final ? FINAL_TEXT : 'Let me check the order.';
      return {
        messages: [
          {
            role: 'assistant',
            content: [
              { type: 'text', text },
              ...toolCalls.map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments })),
            ],
          },
        ],
        toolCalls,
        text,
        finishReason: final ? 'stop' : 'tool-calls',
        rawFinishReason: final ? 'end_turn' : 'tool_use',
        continuation: false,
        usage: { inputTokens: 10, outputTokens: 5 },
        responseId: `msg_bench_${calls}`,
      };
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
