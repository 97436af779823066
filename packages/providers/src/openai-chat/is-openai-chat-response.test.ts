import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isOpenAIChatAssistantMessage, isOpenAIChatResponse } from './is-openai-chat-response.js';
import { openaiChatAssistantMessageSchema, openaiChatResponseSchema } from './openai-chat-api.js';

const fixtures = readdirSync(new URL('./__fixtures__/', import.meta.url))
  .filter((name) => name.endsWith('.json'))
  .map((name) => JSON.parse(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8')));

/** Values a compatible server could send anywhere: wrong types, edge numbers, odd objects. */
const hostileValues: unknown[] = [
  undefined,
  null,
  0,
  -1,
  1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  '',
  'x',
  'function',
  true,
  [],
  [1],
  [{}],
  {},
  { a: 1 },
  JSON.parse('{"__proto__": {"x": 1}}'),
  Object.create(null),
  new Date(0),
];

type Json = Record<string, unknown>;

function replace(target: Json, key: string, value: unknown): Json {
  const copy: Json = { ...target };
  if (value === undefined) delete copy[key];
  else copy[key] = value;
  return copy;
}

/** Every body with one field replaced or removed: top level, in a choice, its message, a call, the usage. */
function singleFieldMutations(body: Json): unknown[] {
  const choice = (body['choices'] as Json[])[0] as Json;
  const message = choice['message'] as Json;
  const call = ((message['tool_calls'] as Json[] | undefined) ?? [
    { id: 'c', type: 'function', function: { name: 'n', arguments: '{}' } },
  ])[0] as Json;
  const usage = (body['usage'] as Json | undefined) ?? {};
  const withChoice = (next: unknown) => ({ ...body, choices: [next] });
  const withMessage = (next: unknown) => withChoice({ ...choice, message: next });
  const withCall = (next: unknown) => withMessage({ ...message, tool_calls: [next] });
  const mutated: unknown[] = [];
  for (const value of hostileValues) {
    for (const key of ['id', 'model', 'choices', 'usage']) mutated.push(replace(body, key, value));
    mutated.push(withChoice(value), { ...body, choices: [choice, value] });
    for (const key of ['finish_reason', 'message']) mutated.push(withChoice(replace(choice, key, value)));
    mutated.push(withMessage(value));
    for (const key of ['content', 'reasoning_content', 'reasoning', 'reasoning_details', 'extra_content', 'tool_calls'])
      mutated.push(withMessage(replace(message, key, value)));
    mutated.push(withMessage({ ...message, reasoning_details: [value] }));
    mutated.push(withCall(value));
    for (const key of ['id', 'type', 'function', 'extra_content']) mutated.push(withCall(replace(call, key, value)));
    for (const key of ['name', 'arguments'])
      mutated.push(withCall({ ...call, function: replace(call['function'] as Json, key, value) }));
    for (const key of ['prompt_tokens', 'completion_tokens', 'prompt_tokens_details'])
      mutated.push({ ...body, usage: replace(usage, key, value) });
    mutated.push({ ...body, usage: { ...usage, prompt_tokens_details: { cached_tokens: value } } });
  }
  return mutated;
}

describe('the plain chat completion check', () => {
  it('accepts every recorded completion, so a well-formed answer skips zod', () => {
    expect(fixtures.length).toBeGreaterThan(3);
    for (const body of fixtures) {
      expect(openaiChatResponseSchema.safeParse(body).success).toBe(true);
      expect(isOpenAIChatResponse(body)).toBe(true);
    }
  });

  it('never accepts a body the schema refuses, over every single-field mutation of each recording', () => {
    const mutations = fixtures.flatMap(singleFieldMutations);
    let accepted = 0;
    let refused = 0;
    for (const candidate of mutations) {
      const zodAccepts = openaiChatResponseSchema.safeParse(candidate).success;
      const plainAccepts = isOpenAIChatResponse(candidate);
      if (plainAccepts && !zodAccepts) throw new Error(`accepted what zod refuses: ${JSON.stringify(candidate)}`);
      if (plainAccepts) accepted += 1;
      if (!zodAccepts) refused += 1;
    }
    // Both verdicts occur: the mutations reach both sides of the check.
    expect(accepted).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(300);
  });

  it('reads a stored assistant turn as zod would, over every single-field mutation of each recorded message', () => {
    const messages = fixtures.map((body) => ((body['choices'] as Json[])[0] as Json)['message'] as Json);
    const mutations = messages.flatMap((message) => {
      const call = ((message['tool_calls'] as Json[] | undefined) ?? [])[0] ?? { id: 'c', function: {} };
      return hostileValues.flatMap((value) => [
        ...['role', 'content', 'tool_calls'].map((key) => replace(message, key, value)),
        { ...message, tool_calls: [value] },
        ...['id', 'type', 'function'].map((key) => ({ ...message, tool_calls: [replace(call, key, value)] })),
      ]);
    });
    let accepted = 0;
    for (const candidate of [...messages, ...mutations]) {
      const zodAccepts = openaiChatAssistantMessageSchema.safeParse(candidate).success;
      const plainAccepts = isOpenAIChatAssistantMessage(candidate);
      if (plainAccepts && !zodAccepts) throw new Error(`accepted what zod refuses: ${JSON.stringify(candidate)}`);
      if (plainAccepts) accepted += 1;
    }
    expect(messages.every(isOpenAIChatAssistantMessage)).toBe(true);
    expect(accepted).toBeGreaterThan(40);
  });
});
