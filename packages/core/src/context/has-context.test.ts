import { describe, expect, it } from 'vitest';
import { defineAgent } from '../agent/define-agent.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { throughJson } from '../test-support/harness.js';
import { createRefundScenario } from '../testing/refund-fixture.js';
import { scriptedProvider } from '../testing/scripted-provider.js';
import { hasContext } from './has-context.js';
import { memoryContextStore } from './memory-context-store.js';

function contextualAgent() {
  const store = memoryContextStore();
  const scenario = createRefundScenario();
  const provider = scriptedProvider([...scenario.replies, { text: 'Anything else?' }]);
  const agent = defineAgent({
    name: 'support',
    runtime: createRuntime(),
    provider,
    actions: { handle: scenario.action },
    context: hasContext(store, { contextual: ({ ticketId }: { ticketId: number }) => `ticket:${ticketId}` }),
  });
  return { store, agent };
}

describe('hasContext', () => {
  it('a pause stores only the user turn; the resume adds one row per tool call and the final answer, never the user turn again', async () => {
    const { store, agent } = contextualAgent();
    const paused = await agent.handle({ ticketId: 42 }).generateNow();
    expect(store.contexts.get('ticket:42')?.messages.map((message) => message.role)).toEqual(['user']);
    expect(
      [...(store.contexts.get('ticket:42')?.generations.values() ?? [])].map((generation) => generation.status),
    ).toEqual(['awaiting_input']);

    await agent
      .handle({ ticketId: 42 })
      .resumeNow({ checkpoint: throughJson(paused.checkpoint), answers: { call_refund: true } });

    const context = store.contexts.get('ticket:42');
    expect(context?.messages).toEqual([
      { generationId: paused.generationId, role: 'user', content: 'Resolve support ticket 42' },
      {
        generationId: paused.generationId,
        role: 'tool',
        toolCallId: 'call_lookup',
        content: {
          tool_name: 'lookup_order',
          arguments: { order_id: 42 },
          result: { order_id: 42, total: 120, status: 'delivered' },
          is_error: false,
        },
      },
      {
        generationId: paused.generationId,
        role: 'tool',
        toolCallId: 'call_refund',
        content: {
          tool_name: 'issue_refund',
          arguments: { order_id: 42, amount: 30 },
          result: { refunded: 30 },
          is_error: false,
        },
      },
      { generationId: paused.generationId, role: 'assistant', content: 'I refunded $30 on order 42.' },
    ]);
    expect([...(context?.generations.values() ?? [])]).toEqual([
      { generationId: paused.generationId, agent: 'support', action: 'handle', status: 'completed' },
    ]);
  });
});
