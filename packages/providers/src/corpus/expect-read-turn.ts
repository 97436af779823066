import type { ModelResponse, ProviderError, ToolCall } from '@interlude/core/provider';
import { expect } from 'vitest';
import type { CorpusApi } from './corpus-exchanges.js';
import type { ChatReplayed } from './read-openai-chat-exchange.js';
import type { ReadToolCall, ReadTurn } from './read-turn.js';

/**
 * The calls an adapter reports against the calls the server wrote: same names and arguments in
 * the same order; a server's id is kept when it is usable, and where the server sent none or one
 * it had already used in the turn, the adapter's id is non-empty, unique in the turn and none of
 * the server's.
 */
export function expectToolCallsRead(actual: readonly ToolCall[], read: readonly ReadToolCall[]): void {
  expect(actual.map(({ name, arguments: input }) => ({ name, arguments: input }))).toEqual(
    read.map(({ name, arguments: input }) => ({ name, arguments: input })),
  );
  const used = new Set<string>();
  read.forEach((call, index) => {
    const id = actual[index]?.id ?? '';
    if (call.id !== '' && !used.has(call.id)) expect(id).toBe(call.id);
    else {
      expect(id, `call ${index} had no usable id`).not.toBe('');
      expect(read.map((written) => written.id)).not.toContain(id);
    }
    used.add(call.id);
  });
  expect(new Set(actual.map((call) => call.id)).size).toBe(actual.length);
}

/** A model response against what the corpus reader found in the same raw answer. */
export function expectResponseRead(api: CorpusApi, response: ModelResponse, read: ReadTurn): void {
  expect(response.text).toBe(read.text);
  expectToolCallsRead(response.toolCalls, read.toolCalls);
  if (api !== 'openai-responses' || read.stopReason === 'completed') {
    expect(response.rawFinishReason).toBe(read.stopReason);
  }
  expect(response.responseId).toBe(read.responseId);
  expect(response.responseModel).toBe(read.responseModel);
  expectReplayed(api, response.messages, read);
}

/**
 * What the stored turn must carry back: Anthropic's blocks and Responses' items as the reader
 * assembled them (a made-up `call_id` aside), Chat's reasoning fields and each call's `extra_content`.
 */
function expectReplayed(api: CorpusApi, messages: readonly unknown[], read: ReadTurn): void {
  if (api === 'anthropic') {
    expect(messages).toHaveLength(1);
    expect((messages[0] as { content: unknown }).content).toEqual(read.replayed);
    return;
  }
  if (api === 'openai-responses') {
    const withoutCallIds = (items: readonly unknown[]) =>
      items.map((item) => {
        const { call_id: _callId, ...rest } = item as Record<string, unknown>;
        return rest;
      });
    expect(withoutCallIds(messages)).toEqual(withoutCallIds(read.replayed as unknown[]));
    return;
  }
  const replayed = read.replayed as ChatReplayed;
  const stored = messages[0] as Record<string, unknown> & { tool_calls?: Record<string, unknown>[] };
  expect(messages).toHaveLength(1);
  for (const [field, value] of Object.entries(replayed.fields)) expect(stored[field], field).toEqual(value);
  replayed.toolCalls.forEach((fields, index) => {
    for (const [field, value] of Object.entries(fields))
      expect(stored.tool_calls?.[index]?.[field], field).toEqual(value);
  });
}

/**
 * The error an adapter raised for an answer that carried one: a numeric code is an HTTP status
 * (never a `type`), a string code or type is the type, and the server's message is kept.
 */
export function expectErrorRead(error: ProviderError, read: NonNullable<ReadTurn['error']>): void {
  if (typeof read.code === 'number') {
    expect(error.status).toBe(read.code);
    expect(error.type).toBe(read.type);
  } else {
    expect(error.type).toBe(read.type ?? read.code);
  }
  if (read.message !== undefined) expect(error.message).toContain(read.message);
}
