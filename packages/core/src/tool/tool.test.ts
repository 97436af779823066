import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tool } from './tool.js';

const orderInput = z.object({ order_id: z.number(), reason: z.string().optional() });

function lookupOrder(description = 'Find an order') {
  return tool({ name: 'lookup_order', description, input: orderInput, run: () => ({}) });
}

describe('tool()', () => {
  it('sends the JSON Schema of its zod input, without $schema', () => {
    expect(lookupOrder().inputSchema).toEqual({
      type: 'object',
      properties: { order_id: { type: 'number' }, reason: { type: 'string' } },
      required: ['order_id'],
    });
  });

  it('converts a schema once however many tools are built from it', () => {
    const first = lookupOrder();
    const second = lookupOrder('Find an order again');

    expect(second.inputSchema).toBe(first.inputSchema);
    expect(second.description).toBe('Find an order again');
    const otherInput = z.object({ order_id: z.number() });
    expect(tool({ name: 'other', description: '', input: otherInput, run: () => ({}) }).inputSchema).not.toBe(
      first.inputSchema,
    );
  });

  it('shares a frozen schema, so one tool cannot change what another sends', () => {
    const schema = lookupOrder().inputSchema as { properties: Record<string, unknown> };

    expect(() => {
      schema.properties['injected'] = { type: 'string' };
    }).toThrow(TypeError);
    expect(Object.keys((lookupOrder().inputSchema as typeof schema).properties)).toEqual(['order_id', 'reason']);
  });
});
