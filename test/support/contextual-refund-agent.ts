import { type ContextStore, createRuntime, defineAgent, hasContext } from '@interlude/core';
import { createRefundScenario, scriptedProvider } from '@interlude/core/testing';

/**
 * The refund agent keeping its conversation per ticket (`ticket:<id>`) in `store`, with the
 * scripted provider it answers from: what every context-store test drives, whatever the store.
 */
export function defineContextualRefundAgent(store: ContextStore) {
  const scenario = createRefundScenario();
  const provider = scriptedProvider([...scenario.replies, { text: 'Anything else?' }]);
  const agent = defineAgent({
    name: 'support',
    runtime: createRuntime(),
    provider,
    actions: { handle: scenario.action },
    context: hasContext(store, { contextual: ({ ticketId }: { ticketId: number }) => `ticket:${ticketId}` }),
  });
  return { agent, provider };
}
