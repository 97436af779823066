import { readdirSync, readFileSync } from 'node:fs';
import { comparePlainCheck, hostileValues, withField } from '@interlude/core/testing';
import { describe, expect, it } from 'vitest';
import { isOpenAIChatAssistantMessage, isOpenAIChatResponse } from './is-openai-chat-response.js';
import { openaiChatAssistantMessageSchema, openaiChatResponseSchema } from './openai-chat-api.js';

const fixtures = readdirSync(new URL('./__fixtures__/', import.meta.url))
  .filter((name) => name.endsWith('.json'))
  .map((name) => JSON.parse(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8')));

/** Hostile values, and one a chat server really sends in a neighbouring field. */
const values: readonly unknown[] = [...hostileValues, 'function'];

type Json = Record<string, unknown>;
const replace = withField;

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
  for (const value of values) {
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
    const { accepted, refused } = comparePlainCheck(
      fixtures.flatMap(singleFieldMutations),
      (candidate) => openaiChatResponseSchema.safeParse(candidate).success,
      isOpenAIChatResponse,
    );
    // Both verdicts occur: the mutations reach both sides of the check.
    expect(accepted).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(300);
  });

  it('reads a stored assistant turn as zod would, over every single-field mutation of each recorded message', () => {
    const messages = fixtures.map((body) => ((body['choices'] as Json[])[0] as Json)['message'] as Json);
    const mutations = messages.flatMap((message) => {
      const call = ((message['tool_calls'] as Json[] | undefined) ?? [])[0] ?? { id: 'c', function: {} };
      return values.flatMap((value) => [
        ...['role', 'content', 'tool_calls'].map((key) => replace(message, key, value)),
        { ...message, tool_calls: [value] },
        ...['id', 'type', 'function'].map((key) => ({ ...message, tool_calls: [replace(call, key, value)] })),
      ]);
    });
    const { accepted } = comparePlainCheck(
      [...messages, ...mutations],
      (candidate) => openaiChatAssistantMessageSchema.safeParse(candidate).success,
      isOpenAIChatAssistantMessage,
    );
    expect(messages.every(isOpenAIChatAssistantMessage)).toBe(true);
    expect(accepted).toBeGreaterThan(40);
  });
});
