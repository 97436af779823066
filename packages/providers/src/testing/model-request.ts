import type { ModelRequest, ProviderAdapter, ToolSpec } from '@interlude/core/provider';

/** `lookup_order` as the adapters' call tests declare it, so each can check how its API spells a tool. */
export const lookupOrderSpec: ToolSpec = {
  name: 'lookup_order',
  description: 'Look an order up',
  inputSchema: { type: 'object', properties: { order_id: { type: 'number' } }, required: ['order_id'] },
};

/**
 * The request an adapter's call tests send unless they say otherwise: the support instructions,
 * one user message rendered by that adapter, the given tools and no tool choice.
 *
 * @example
 * await adapter().call(createModelRequest(adapter(), [lookupOrderSpec], { toolChoice: 'required' }), { stream });
 */
export function createModelRequest(
  adapter: ProviderAdapter,
  tools: ToolSpec[],
  overrides: Partial<ModelRequest> = {},
): ModelRequest {
  return {
    instructions: 'You resolve support tickets.',
    messages: adapter.userMessages('Resolve ticket 42'),
    tools,
    toolChoice: undefined,
    ...overrides,
  };
}
