import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { isRecord } from './convert-to-anthropic-messages.js';

/** The API refuses a request with more than four `cache_control` breakpoints. */
export const MAX_CACHE_BREAKPOINTS = 4;

const EPHEMERAL = { type: 'ephemeral' } as const;

/**
 * The request's messages with a prompt-cache breakpoint on the last block of the last message,
 * so every call of a tool loop (and every resume) reads the conversation so far from the cache.
 * The stored history is never touched: changed messages and blocks are copies. String content is
 * sent as one text block, the only form that can carry `cache_control`. Thinking blocks and
 * empty text cannot hold a breakpoint, so it goes on the last block that can. Breakpoints found
 * in the history are kept newest first, up to the API's limit of four in all.
 *
 * @see https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching
 */
export function withCacheBreakpoint(messages: readonly MessageParam[]): MessageParam[] {
  const result = [...messages];
  const lastIndex = result.length - 1;
  const last = result[lastIndex];
  if (last === undefined) return result;
  const blocks = contentBlocks(last);
  const target = findCacheableBlock(blocks);
  if (target === -1) return capBreakpoints(result, MAX_CACHE_BREAKPOINTS);
  const content = blocks.map((block, index) => (index === target ? { ...block, cache_control: EPHEMERAL } : block));
  result[lastIndex] = { ...last, content } as unknown as MessageParam;
  return capBreakpoints(result, MAX_CACHE_BREAKPOINTS);
}

function contentBlocks(message: MessageParam): Record<string, unknown>[] {
  if (typeof message.content === 'string') {
    return message.content === '' ? [] : [{ type: 'text', text: message.content }];
  }
  return message.content as unknown as Record<string, unknown>[];
}

function findCacheableBlock(blocks: readonly Record<string, unknown>[]): number {
  for (let index = blocks.length - 1; index >= 0; index -= 1) {
    const block = blocks[index];
    if (block === undefined || block['type'] === 'thinking' || block['type'] === 'redacted_thinking') continue;
    if (block['type'] === 'text' && block['text'] === '') continue;
    return index;
  }
  return -1;
}

/** Drops the oldest breakpoints (on copies) until at most `limit` remain. */
function capBreakpoints(messages: MessageParam[], limit: number): MessageParam[] {
  let remaining = limit;
  for (let messageIndex = messages.length - 1; messageIndex >= 0; messageIndex -= 1) {
    const message = messages[messageIndex];
    if (message === undefined || !Array.isArray(message.content)) continue;
    const blocks = message.content as unknown as Record<string, unknown>[];
    let copied: Record<string, unknown>[] | undefined;
    for (let blockIndex = blocks.length - 1; blockIndex >= 0; blockIndex -= 1) {
      const block = blocks[blockIndex];
      if (!isRecord(block) || block['cache_control'] == null) continue;
      if (remaining > 0) {
        remaining -= 1;
        continue;
      }
      copied ??= [...blocks];
      const { cache_control: _dropped, ...rest } = block;
      copied[blockIndex] = rest;
    }
    if (copied !== undefined) messages[messageIndex] = { ...message, content: copied } as unknown as MessageParam;
  }
  return messages;
}
