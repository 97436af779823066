import type { ContextStore } from '@interlude/core';
import { expect, it } from 'vitest';
import { defineContextualRefundAgent } from './contextual-refund-agent.js';

const toolRow = { generationId: 'g', role: 'tool' as const, toolCallId: 'c1', content: { result: 1 } };

/**
 * The checks every `ContextStore` must pass, whatever it keeps its rows in, so the memory store
 * and the PostgreSQL store are held to the same contract. Call it inside a `describe`;
 * `currentStore` is called in each test and gives that test's fresh, empty store.
 *
 * @example
 * describe('memoryContextStore as a ContextStore', () => {
 *   defineContextStoreConformance(() => memoryContextStore());
 * });
 */
export function defineContextStoreConformance(currentStore: () => ContextStore): void {
  it('stores a tool message once per tool call id, even when appended twice', async () => {
    const store = currentStore();
    await store.append('k', [toolRow]);
    await store.append('k', [toolRow, { ...toolRow, toolCallId: 'c2' }]);
    expect((await store.load('k')).map((message) => message.toolCallId)).toEqual(['c1', 'c2']);
  });

  it('dedupes per context: the same tool call id in another context is its own row', async () => {
    const store = currentStore();
    await store.append('a', [toolRow]);
    await store.append('b', [toolRow]);
    expect(await store.load('a')).toEqual([toolRow]);
    expect(await store.load('b')).toEqual([toolRow]);
  });

  it('keeps user and assistant text as text and rows in the order appended', async () => {
    const store = currentStore();
    await store.append('k', [
      { generationId: 'g', role: 'user', content: 'Hello "there"' },
      { generationId: 'g', role: 'assistant', content: 'Hi.' },
    ]);
    await store.append('k', [{ generationId: 'h', role: 'user', content: 'Again' }]);
    expect(await store.load('k')).toEqual([
      { generationId: 'g', role: 'user', content: 'Hello "there"' },
      { generationId: 'g', role: 'assistant', content: 'Hi.' },
      { generationId: 'h', role: 'user', content: 'Again' },
    ]);
  });

  it('load gives back the same messages as the memory store would, in order', async () => {
    const store = currentStore();
    const { agent } = defineContextualRefundAgent(store);
    const paused = await agent.handle({ ticketId: 42 }).generateNow();
    await agent.handle({ ticketId: 42 }).resumeNow({ checkpoint: paused.checkpoint!, answers: { call_refund: true } });

    const loaded = await store.load('ticket:42');
    expect(loaded.map((message) => [message.role, message.toolCallId])).toEqual([
      ['user', undefined],
      ['tool', 'call_lookup'],
      ['tool', 'call_refund'],
      ['assistant', undefined],
    ]);
    expect(loaded[0]).toEqual({
      generationId: paused.generationId,
      role: 'user',
      content: 'Resolve support ticket 42',
    });
    expect(await store.load('ticket:7')).toEqual([]);
  });

  it('the next generation in the same context starts from the conversation so far', async () => {
    const { agent, provider } = defineContextualRefundAgent(currentStore());
    const paused = await agent.handle({ ticketId: 42 }).generateNow();
    await agent.handle({ ticketId: 42 }).resumeNow({ checkpoint: paused.checkpoint!, answers: { call_refund: true } });
    await agent.handle({ ticketId: 42 }).generateNow();

    expect(provider.requests[2]?.messages).toEqual([
      { role: 'user', content: 'Resolve support ticket 42' },
      { role: 'assistant', content: [{ type: 'text', text: 'I refunded $30 on order 42.' }] },
      { role: 'user', content: 'Resolve support ticket 42' },
    ]);
  });
}
