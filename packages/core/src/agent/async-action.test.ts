import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InputRequest } from '../input-request/input-request.js';
import { scriptedAgent, throughJson } from '../test-support/harness.js';
import { tool } from '../tool/tool.js';

/** A ticket store the action awaits, counting its loads. */
function ticketStore() {
  const loads: number[] = [];
  return {
    loads,
    async load(ticketId: number) {
      await new Promise((resolve) => setImmediate(resolve));
      loads.push(ticketId);
      return { ticketId, orderId: 42, customer: 'Ada' };
    },
  };
}

describe('an async action', () => {
  it('is awaited on the first run and again on resume, building its tools from what it loaded', async () => {
    const tickets = ticketStore();
    const refunded: number[] = [];
    const { agent, provider } = scriptedAgent(
      async ({ ticketId }: { ticketId: number }) => {
        const ticket = await tickets.load(ticketId);
        const refund = tool({
          name: 'issue_refund',
          description: `Refund order ${ticket.orderId}`,
          input: z.object({ amount: z.number() }),
          run: ({ amount }, ctx) => {
            if (ctx.answer === undefined) return InputRequest.confirm(`Refund $${amount} to ${ticket.customer}?`);
            refunded.push(amount);
            return { refunded: amount };
          },
        });
        return { message: `Resolve ticket ${ticket.ticketId} for ${ticket.customer}`, tools: [refund] };
      },
      [{ toolCalls: [{ id: 'call_refund', name: 'issue_refund', arguments: { amount: 30 } }] }, { text: 'Refunded.' }],
    );
    const paused = await agent.handle({ ticketId: 7 }).generateNow();
    expect(paused.inputRequests.map((request) => request.prompt)).toEqual(['Refund $30 to Ada?']);
    expect(JSON.stringify(provider.requests[0]?.messages)).toContain('Resolve ticket 7 for Ada');

    const done = await agent
      .handle({ ticketId: 7 })
      .resumeNow({ checkpoint: throughJson(paused.checkpoint), answers: { call_refund: true } });
    expect(done.text).toBe('Refunded.');
    expect(refunded).toEqual([30]);
    expect(tickets.loads).toEqual([7, 7]);
  });

  it('a rejected action fails generateNow and generateLater before any request', async () => {
    const { agent, provider } = scriptedAgent(async () => {
      throw new Error('ticket store down');
    }, []);
    await expect(agent.handle({}).generateNow()).rejects.toThrow('ticket store down');
    await expect(agent.handle({}).generateLater()).rejects.toThrow('ticket store down');
    expect(provider.requests).toHaveLength(0);
  });

  it('an async action resolving to a malformed prompt is a TypeError before any request', async () => {
    const { agent, provider } = scriptedAgent(async () => ({ tools: [] }) as never, []);
    await expect(agent.handle({}).generateNow()).rejects.toThrow(TypeError);
    expect(provider.requests).toHaveLength(0);
  });
});
