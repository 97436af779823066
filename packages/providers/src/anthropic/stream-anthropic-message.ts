import { APIError } from '@anthropic-ai/sdk';
import type { MessageCreateParamsBase } from '@anthropic-ai/sdk/resources/messages';
import type { ModelStreamPart } from '@interlude/core/provider';
import type { AnthropicMessagesClient } from './anthropic-client.js';
import { AnthropicStreamTruncatedError } from './anthropic-error.js';
import { createStreamBlockAssembler } from './assemble-anthropic-stream-blocks.js';

/**
 * Streams one Messages call over SSE through the SDK's `MessageStream`, which assembles text,
 * tool input JSON, thinking and signatures exactly as the non-streamed answer would have them;
 * blocks it does not assemble (`mcp_tool_use` input, `compaction` content) are completed from the
 * same events (`createStreamBlockAssembler`).
 * Text deltas are reported as they arrive; a client tool call is reported once, when its block
 * is complete (its input is whole JSON only then). Resolves with the assembled message. A stream
 * that stops before `message_stop` (dropped connection, body ended early) rejects with
 * `AnthropicStreamTruncatedError`, never hangs; an SSE `error` event stays the SDK's `APIError`.
 *
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming
 */
export async function streamAnthropicMessage(
  client: AnthropicMessagesClient,
  params: MessageCreateParamsBase,
  options: { onPart?: (part: ModelStreamPart) => void; signal?: AbortSignal },
): Promise<unknown> {
  const stream = client.messages.stream(params, options.signal ? { signal: options.signal } : undefined);
  const blocks = createStreamBlockAssembler();
  stream.on('streamEvent', (event) => blocks.onEvent(event));
  const onPart = options.onPart;
  if (onPart !== undefined) {
    stream.on('text', (text) => onPart({ type: 'text-delta', text }));
    stream.on('contentBlock', (block) => {
      if (block.type !== 'tool_use') return;
      onPart({ type: 'tool-call', toolCall: { id: block.id, name: block.name, arguments: block.input ?? {} } });
    });
  }
  // Once the answer's headers are in, any failure that is not the API's own error event is a
  // body that stopped early, whether or not an event got through first.
  let connected = false;
  stream.on('connect', () => {
    connected = true;
  });
  let message: Awaited<ReturnType<typeof stream.finalMessage>>;
  try {
    message = await stream.finalMessage();
  } catch (error) {
    const fromServer = error instanceof APIError && (error.status !== undefined || error.type !== null);
    if (connected && !fromServer) throw new AnthropicStreamTruncatedError(error);
    throw error;
  }
  // The stream's snapshot carries lazy getters and buffers; store plain JSON only.
  const plain = JSON.parse(JSON.stringify(message)) as { content: Record<string, unknown>[] };
  return { ...plain, content: blocks.complete(plain.content) };
}
