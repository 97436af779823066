import { readSseJson } from '../shared/sse-frames.js';
import { firstNonEmpty, parseArguments, type ReadTurn } from './read-turn.js';

type Json = Record<string, unknown>;

/**
 * Reads a Messages answer, JSON or a raw SSE body, as the API documents it: a stream is folded
 * event by event into the message a non-streamed call returns, with every delta type applied to
 * whatever block it names (`input_json_delta` fills the `input` of any block, `compaction_delta`
 * sets a compaction's content), pings skipped, and an `error` event read as the answer's error.
 *
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming
 */
export function readAnthropicExchange(body: string, streamed: boolean): ReadTurn {
  const message = streamed ? foldStream(body) : { message: JSON.parse(body) as Json, error: undefined };
  const content = (message.message['content'] as Json[] | undefined) ?? [];
  return {
    text: content
      .filter((block) => block['type'] === 'text')
      .map((block) => String(block['text']))
      .join(''),
    toolCalls: content
      .filter((block) => block['type'] === 'tool_use')
      .map((block) => ({ id: String(block['id']), name: String(block['name']), arguments: block['input'] ?? {} })),
    stopReason: (message.message['stop_reason'] as string | null | undefined) ?? undefined,
    responseId: firstNonEmpty(undefined, message.message['id']),
    responseModel: firstNonEmpty(undefined, message.message['model']),
    error: message.error,
    replayed: content,
  };
}

function foldStream(body: string): { message: Json; error: ReadTurn['error'] } {
  let message: Json = { content: [] };
  const buffers = new Map<number, string>();
  for (const { value: event } of readSseJson(body)) {
    const content = message['content'] as Json[];
    switch (event['type']) {
      case 'message_start':
        message = { ...(event['message'] as Json), content: [] };
        break;
      case 'content_block_start':
        content[event['index'] as number] = { ...(event['content_block'] as Json) };
        break;
      case 'content_block_delta':
        applyDelta(
          content[event['index'] as number] as Json,
          event['delta'] as Json,
          event['index'] as number,
          buffers,
        );
        break;
      case 'content_block_stop': {
        const buffer = buffers.get(event['index'] as number);
        if (buffer !== undefined) (content[event['index'] as number] as Json)['input'] = parseArguments(buffer);
        buffers.delete(event['index'] as number);
        break;
      }
      case 'message_delta':
        Object.assign(message, event['delta'] as Json);
        break;
      case 'error': {
        const error = event['error'] as Json;
        return { message, error: { type: String(error['type']), message: String(error['message']) } };
      }
    }
  }
  return { message, error: undefined };
}

function applyDelta(block: Json, delta: Json, index: number, buffers: Map<number, string>): void {
  switch (delta['type']) {
    case 'text_delta':
      block['text'] = String(block['text'] ?? '') + String(delta['text']);
      return;
    case 'input_json_delta':
      buffers.set(index, (buffers.get(index) ?? '') + String(delta['partial_json']));
      return;
    case 'thinking_delta':
      block['thinking'] = String(block['thinking'] ?? '') + String(delta['thinking']);
      return;
    case 'signature_delta':
      block['signature'] = delta['signature'];
      return;
    case 'citations_delta':
      block['citations'] = [...((block['citations'] as unknown[] | undefined) ?? []), delta['citation']];
      return;
    case 'compaction_delta': {
      const { type: _type, ...fields } = delta;
      Object.assign(block, fields);
      return;
    }
    default:
      throw new Error(`The corpus reader does not know the Messages delta ${String(delta['type'])}`);
  }
}
