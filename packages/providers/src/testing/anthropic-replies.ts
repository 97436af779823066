import type { WireReply } from './wire-server.js';

type Block = Record<string, unknown>;

/**
 * The SSE events the Messages API sends for a given message, in the API's order: a
 * `message_start` with empty content, each block opened, filled by deltas (text and tool input
 * in two pieces, so assembly is exercised) and closed, then `message_delta` with the stop reason
 * and `message_stop`. Lets one recorded JSON response be replayed streamed as well.
 *
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming#event-types
 */
export function anthropicStreamEvents(message: Block): Block[] {
  const content = (message['content'] as Block[] | undefined) ?? [];
  const usage = (message['usage'] as Block | undefined) ?? { input_tokens: 1, output_tokens: 1 };
  const events: Block[] = [
    {
      type: 'message_start',
      message: {
        id: message['id'] ?? 'msg_stream',
        type: 'message',
        role: 'assistant',
        model: message['model'] ?? 'claude-test',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 0 },
      },
    },
  ];
  content.forEach((block, index) => {
    events.push(...blockEvents(block, index));
  });
  events.push({
    type: 'message_delta',
    delta: {
      stop_reason: message['stop_reason'] ?? 'end_turn',
      stop_sequence: null,
      ...(message['container'] ? { container: message['container'] } : {}),
    },
    usage: { output_tokens: usage['output_tokens'] ?? 1 },
  });
  events.push({ type: 'message_stop' });
  return events;
}

function blockEvents(block: Block, index: number): Block[] {
  const start = (contentBlock: Block): Block => ({ type: 'content_block_start', index, content_block: contentBlock });
  const delta = (value: Block): Block => ({ type: 'content_block_delta', index, delta: value });
  const stop: Block = { type: 'content_block_stop', index };
  if (block['type'] === 'text') {
    const [first, second] = halves(String(block['text'] ?? ''));
    const { text: _text, ...rest } = block;
    return [
      start({ ...rest, text: '' }),
      delta({ type: 'text_delta', text: first }),
      delta({ type: 'text_delta', text: second }),
      stop,
    ];
  }
  if (block['type'] === 'tool_use' || block['type'] === 'server_tool_use') {
    const [first, second] = halves(JSON.stringify(block['input'] ?? {}));
    return [
      start({ ...block, input: {} }),
      delta({ type: 'input_json_delta', partial_json: first }),
      delta({ type: 'input_json_delta', partial_json: second }),
      stop,
    ];
  }
  if (block['type'] === 'thinking') {
    return [
      start({ ...block, thinking: '', signature: '' }),
      delta({ type: 'thinking_delta', thinking: String(block['thinking'] ?? '') }),
      delta({ type: 'signature_delta', signature: String(block['signature'] ?? '') }),
      stop,
    ];
  }
  return [start(block), stop];
}

function halves(text: string): [string, string] {
  const middle = Math.ceil(text.length / 2);
  return [text.slice(0, middle), text.slice(middle)];
}

/** One Messages response as the wire server should send it: JSON, or SSE with named events. */
export function anthropicReply(message: Block, options: { stream: boolean }): WireReply {
  return options.stream ? { sse: anthropicStreamEvents(message), namedEvents: true } : { json: message };
}
