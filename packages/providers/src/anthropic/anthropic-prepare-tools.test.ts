import { describe, expect, it } from 'vitest';
import { mapAnthropicToolChoice, prepareAnthropicTools } from './anthropic-prepare-tools.js';

describe('anthropic tools and tool choice', () => {
  it.each([
    ['auto', { type: 'auto' }],
    ['none', { type: 'none' }],
    ['required', { type: 'any' }],
    [{ type: 'tool', name: 'lookup_order' } as const, { type: 'tool', name: 'lookup_order' }],
    [undefined, undefined],
  ] as const)('maps %j to %j', (choice, expected) => {
    expect(mapAnthropicToolChoice(choice)).toEqual(expected);
  });

  it('sends neither tools nor a tool choice when there are no tools (the API refuses a choice alone)', () => {
    expect(prepareAnthropicTools([], [], 'required')).toEqual({ tools: undefined, toolChoice: undefined });
  });

  it('keeps a schema without a type an object schema', () => {
    const { tools } = prepareAnthropicTools([{ name: 'ping', description: 'Ping', inputSchema: {} }], [], undefined);
    expect(tools).toEqual([{ name: 'ping', description: 'Ping', input_schema: { type: 'object' } }]);
  });
});
