import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionChunk,
  ChatCompletionMessageFunctionToolCall,
} from 'openai/resources/chat/completions';

/** The assistant's turn read from a stream: the message to send back, and its calls. */
export interface StreamedTurn {
  message: ChatCompletionAssistantMessageParam;
  calls: ChatCompletionMessageFunctionToolCall[];
}

/**
 * Reads a streamed chat completion to its end and assembles the assistant message by hand, as a
 * developer on the bare SDK writes it: text from the content deltas, each tool call from its
 * pieces keyed by `index` (the first piece names it, the rest append arguments). A stream that
 * ends without a `finish_reason` was cut: it throws instead of passing as an answer, the one
 * check every streamed variant makes too.
 */
export async function assembleStreamedMessage(chunks: AsyncIterable<ChatCompletionChunk>): Promise<StreamedTurn> {
  let content = '';
  let finished = false;
  const calls: ChatCompletionMessageFunctionToolCall[] = [];
  for await (const chunk of chunks) {
    const choice = chunk.choices[0];
    if (choice === undefined) continue;
    if (choice.delta.content) content += choice.delta.content;
    for (const piece of choice.delta.tool_calls ?? []) {
      const call = calls[piece.index] ?? { id: '', type: 'function', function: { name: '', arguments: '' } };
      calls[piece.index] = call;
      if (piece.id) call.id = piece.id;
      if (piece.function?.name) call.function.name += piece.function.name;
      if (piece.function?.arguments) call.function.arguments += piece.function.arguments;
    }
    if (choice.finish_reason) finished = true;
  }
  if (!finished) throw new Error('The stream ended without a finish_reason');
  const message: ChatCompletionAssistantMessageParam = {
    role: 'assistant',
    content: content === '' ? null : content,
    ...(calls.length > 0 && { tool_calls: calls }),
  };
  return { message, calls };
}
