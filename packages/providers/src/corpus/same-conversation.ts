import { expect } from 'vitest';
import type { CorpusApi } from './corpus-exchanges.js';
import { conversationOf } from './corpus-wire.js';

const GENERATED = /^\$generated:(\d+)$/;

/**
 * Checks that a request sent the conversation exactly as the recorded, accepted request did. An id
 * the recorded client had to make up (written `"$generated:N"`) may be any non-empty id, the same
 * one wherever the same N appears and a different one for each N. Beyond that, only spellings the
 * API reference documents as the same may differ (`documentedSame`), so what the server produced
 * (assistant turns, ids, reasoning) must come back byte for byte.
 *
 * With `tail`, only the last `tail` items are compared: a turn the replay reached after its own
 * hand-made opening, whose earlier messages the recording never had.
 */
export function expectSameConversation(
  api: CorpusApi,
  sent: Record<string, unknown>,
  accepted: Record<string, unknown>,
  options: { tail?: number } = {},
): void {
  const actual = documentedSame(api, cut(conversationOf(api, sent), options.tail));
  const bindings = new Map<string, string>();
  const expected = bind(documentedSame(api, cut(conversationOf(api, accepted), options.tail)), actual, bindings);
  const values = [...bindings.values()];
  expect(new Set(values).size, 'each made-up id is a different id').toBe(values.length);
  expect(actual).toEqual(expected);
}

function cut(conversation: Record<string, unknown>, tail: number | undefined): Record<string, unknown> {
  if (tail === undefined) return conversation;
  const key = 'input' in conversation ? 'input' : 'messages';
  return { [key]: (conversation[key] as unknown[]).slice(-tail) };
}

/**
 * One spelling for what the references document as equivalent: on Chat, an assistant message's
 * `content: null` and no `content` (tool calls carry the turn); on Messages, a user turn's string
 * content and one text block, and `is_error: false` and no `is_error` on a tool result; on
 * Responses, an input item's `status` (an output-only field the API ignores on input).
 */
function documentedSame(api: CorpusApi, conversation: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(conversation);
  const items = (copy['messages'] ?? copy['input'] ?? []) as Record<string, unknown>[];
  for (const item of items) {
    if (api === 'openai-chat' && item['role'] === 'assistant' && item['content'] === null) delete item['content'];
    if (api === 'openai-responses' && item['type'] === 'function_call') delete item['status'];
    if (api !== 'anthropic') continue;
    if (item['role'] === 'user' && typeof item['content'] === 'string')
      item['content'] = [{ type: 'text', text: item['content'] }];
    for (const block of Array.isArray(item['content']) ? (item['content'] as Record<string, unknown>[]) : []) {
      if (block['type'] === 'tool_result' && block['is_error'] === false) delete block['is_error'];
    }
  }
  return copy;
}

function bind<T>(expected: T, actual: unknown, bindings: Map<string, string>): T {
  if (typeof expected === 'string') {
    const match = GENERATED.exec(expected);
    if (match === null) return expected;
    expect(typeof actual === 'string' && actual !== '', `${expected} must be a non-empty id`).toBe(true);
    const key = match[1] as string;
    const bound = bindings.get(key);
    if (bound === undefined) bindings.set(key, actual as string);
    return (bound ?? actual) as T;
  }
  if (Array.isArray(expected)) {
    return expected.map((item, index) => bind(item, Array.isArray(actual) ? actual[index] : undefined, bindings)) as T;
  }
  if (typeof expected === 'object' && expected !== null) {
    const source = (typeof actual === 'object' && actual !== null ? actual : {}) as Record<string, unknown>;
    return Object.fromEntries(
      Object.entries(expected).map(([key, value]) => [key, bind(value, source[key], bindings)]),
    ) as T;
  }
  return expected;
}
