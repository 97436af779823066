import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { ProviderMessage, ToolCall, ToolResultMessage } from '@interlude/core/provider';
import type { AnthropicContainer, AnthropicMessage } from './anthropic-api.js';

/**
 * A message as the adapter stores it in a checkpoint: the wire `MessageParam`, and on an
 * assistant turn that ran code execution the response's `container`, so the next request can
 * reuse it (the Messages API reports the container beside the content, not in it).
 * `container` is stripped before anything is sent.
 */
export interface StoredAnthropicMessage {
  role: 'user' | 'assistant';
  content: string | Record<string, unknown>[];
  container?: AnthropicContainer;
}

/**
 * The opening user turn, as plain string content, the shortest form the API takes.
 *
 * @see https://docs.anthropic.com/en/api/messages#body-messages
 */
export function toAnthropicUserMessages(text: string): StoredAnthropicMessage[] {
  return [{ role: 'user', content: text }];
}

/** A stored conversation's earlier answer, replayed as a plain assistant turn (`hasContext`). */
export function toAnthropicAssistantMessages(text: string): StoredAnthropicMessage[] {
  return [{ role: 'assistant', content: [{ type: 'text', text }] }];
}

/**
 * One turn's results as ONE user message of `tool_result` blocks, in call order: the API
 * wants every result of an assistant turn in the next user message, and nothing else first.
 *
 * @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use#handling-tool-use-and-tool-result-content-blocks
 */
export function toAnthropicToolResultMessages(results: readonly ToolResultMessage[]): StoredAnthropicMessage[] {
  if (results.length === 0) return [];
  return [
    {
      role: 'user',
      content: results.map((result) => ({
        type: 'tool_result',
        tool_use_id: result.toolCallId,
        content: result.output,
        ...(result.isError ? { is_error: true } : {}),
      })),
    },
  ];
}

/**
 * The assistant turn to store, with the content blocks exactly as received: thinking blocks
 * and their signatures, server tool blocks and citations must go back byte for byte.
 */
export function fromAnthropicResponse(message: AnthropicMessage): StoredAnthropicMessage {
  const stored: StoredAnthropicMessage = {
    role: 'assistant',
    content: structuredClone(message.content) as Record<string, unknown>[],
  };
  if (message.container) stored.container = { id: message.container.id, expires_at: message.container.expires_at };
  return stored;
}

/** The client `tool_use` blocks of some messages, in order. Server tool blocks are the API's business. */
export function readAnthropicToolCalls(messages: readonly ProviderMessage[]): ToolCall[] {
  const calls: ToolCall[] = [];
  for (const message of messages) {
    if (!isRecord(message) || message['role'] !== 'assistant' || !Array.isArray(message['content'])) continue;
    for (const block of message['content']) {
      if (
        isRecord(block) &&
        block['type'] === 'tool_use' &&
        typeof block['id'] === 'string' &&
        typeof block['name'] === 'string'
      ) {
        calls.push({ id: block['id'], name: block['name'], arguments: block['input'] ?? {} });
      }
    }
  }
  return calls;
}

/** Stored messages as the API takes them: our `container` note removed, everything else as stored. */
export function toWireMessages(messages: readonly ProviderMessage[]): MessageParam[] {
  return messages.map((message) => {
    if (isRecord(message) && 'container' in message) {
      const { container: _container, ...wire } = message;
      return wire as unknown as MessageParam;
    }
    return message as MessageParam;
  });
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
