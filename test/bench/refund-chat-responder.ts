import {
  type ChatCompletionBody,
  openaiChatCompletion,
  openaiChatReply,
  openaiChatToolCall,
  type RecordedRequest,
  type WireReply,
} from '@interlude/providers/testing';

/** The ticket message the refund agents send; `lookups` extra model turns come before the refund. */
export function ticketMessage(ticketId: number, lookups = 0): string {
  return lookups === 0
    ? `Resolve support ticket ${ticketId}`
    : `Resolve support ticket ${ticketId}; look the order up ${lookups} times first`;
}

export const FINAL_TEXT = 'I refunded $30 on order 42.';

interface ChatMessage {
  role: string;
  content?: unknown;
  tool_call_id?: string;
}

interface ChatRequestBody {
  messages?: ChatMessage[];
}

/**
 * The model of the refund scenario in OpenAI Chat Completions wire format, answering from the
 * conversation it is sent rather than a queue, so any number of clients can run the scenario at
 * once: `lookups` single lookups (from the ticket message), then `lookup_order` and
 * `issue_refund` in one turn, then the final answer once the refund's result is in. A request
 * with `stream: true` gets the same answer as server-sent chunks, as the real API streams it.
 */
export function answerRefundChat(request: RecordedRequest): WireReply {
  const body = (request.body ?? {}) as ChatRequestBody;
  return openaiChatReply(answerOf(body.messages ?? []), request.body);
}

function answerOf(messages: readonly ChatMessage[]): ChatCompletionBody {
  const toolResults = messages.filter((message) => message.role === 'tool').map((message) => message.tool_call_id);
  if (toolResults.includes('call_refund')) return completion({ content: FINAL_TEXT }, 'stop');
  const user = messages.find((message) => message.role === 'user');
  const wanted = Number(/look the order up (\d+) times/.exec(String(user?.content ?? ''))?.[1] ?? 0);
  const done = toolResults.filter((id) => id?.startsWith('call_lookup_')).length;
  if (done < wanted) {
    return completion({
      content: null,
      tool_calls: [functionCall(`call_lookup_${done}`, 'lookup_order', { order_id: 42 })],
    });
  }
  return completion({
    content: 'Let me check the order.',
    tool_calls: [
      functionCall('call_lookup', 'lookup_order', { order_id: 42 }),
      functionCall('call_refund', 'issue_refund', { order_id: 42, amount: 30 }),
    ],
  });
}

function functionCall(id: string, name: string, input: unknown) {
  return openaiChatToolCall({ id, name, input });
}

function completion(message: ChatCompletionBody['choices'][number]['message'], finishReason = 'tool_calls') {
  return openaiChatCompletion(message, finishReason, { id: 'chatcmpl-bench', model: 'gpt-4.1-bench' });
}
