import { describe, expect, it } from 'vitest';
import { openaiChatChunkSchema } from './openai-chat-api.js';
import { isCommonChunk } from './openai-chat-chunk-check.js';

const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4.1' };
/** Chunks as OpenAI streams them: the role, text, a call opened and continued, the finish, the usage. */
const COMMON = [
  { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] },
  { ...base, choices: [{ index: 0, delta: { content: 'Looking' }, finish_reason: null }] },
  {
    ...base,
    choices: [
      {
        index: 0,
        delta: {
          tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'lookup_order', arguments: '' } }],
        },
        finish_reason: null,
      },
    ],
  },
  { ...base, choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"order_id"' } }] } }] },
  { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
  { ...base, choices: [{ index: 0, delta: { reasoning_content: 'thinking', content: null } }] },
];
const OTHER = [
  { ...base, choices: [], usage: { prompt_tokens: 10, completion_tokens: 5 } },
  { ...base, choices: [{ index: 0, delta: { reasoning_details: [{ type: 'reasoning.text', text: 'x' }] } }] },
  {
    ...base,
    choices: [
      { index: 0, delta: { tool_calls: [{ index: 0, extra_content: { google: { thought_signature: 's' } } }] } },
    ],
  },
];
const REPLACEMENTS: unknown[] = [undefined, null, 0, 1.5, '', 'x', true, {}, [], [1], [{}], { a: 1 }];

/** Every path to a value in `value` (object keys and array indexes), the root excluded. */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => {
    const path = [...prefix, Array.isArray(value) ? Number(key) : key];
    return [path, ...paths(child, path)];
  });
}

function replaced(value: unknown, path: (string | number)[], by: unknown): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  at[path.at(-1) as string | number] = by;
  return copy;
}

describe('the hand check of a streamed Chat Completions chunk', () => {
  it('takes the common chunks as they are, and leaves the usage and reasoning objects to the schema', () => {
    for (const chunk of COMMON) expect(isCommonChunk(chunk), JSON.stringify(chunk)).toBe(true);
    for (const chunk of OTHER) expect(isCommonChunk(chunk), JSON.stringify(chunk)).toBe(false);
  });

  it('never accepts a chunk the schema refuses, under any single-field change', () => {
    let refusedBySchema = 0;
    for (const chunk of [...COMMON, ...OTHER]) {
      for (const path of paths(chunk)) {
        for (const by of REPLACEMENTS) {
          const mutated = replaced(chunk, path, by);
          const valid = openaiChatChunkSchema.safeParse(mutated).success;
          if (!valid) refusedBySchema += 1;
          if (isCommonChunk(mutated)) expect(valid, `${path.join('.')} = ${JSON.stringify(by)}`).toBe(true);
        }
      }
    }
    // The mutations do reach what the schema refuses, so the check above is exercised.
    expect(refusedBySchema).toBeGreaterThan(100);
  });

  it('refuses what is not a chunk object at all', () => {
    for (const raw of [null, undefined, 'data', 1, [], [{}]]) expect(isCommonChunk(raw)).toBe(false);
  });
});
