import { memoryBus } from '@interlude/bus';
import { createRuntime, defineAgent, InputRequest, tool } from '@interlude/core';
import { scriptedProvider } from '@interlude/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

describe('the support agent', () => {
  it('asks before refunding, refunds once after a yes, and says so', async () => {
    const refunds: { orderId: number; amount: number }[] = [];
    const issueRefund = tool({
      name: 'issue_refund',
      description: 'Refund part of an order',
      input: z.object({ order_id: z.number(), amount: z.number() }),
      async run({ order_id, amount }, ctx) {
        if (ctx.answer === undefined) return InputRequest.confirm(`Refund $${amount} on order ${order_id}?`);
        refunds.push({ orderId: order_id, amount });
        return { refunded: amount };
      },
    });
    // One reply per model call: first the tool call, then the final answer.
    const model = scriptedProvider([
      { toolCalls: [{ id: 'call_refund', name: 'issue_refund', arguments: { order_id: 42, amount: 30 } }] },
      { text: 'I refunded $30 on order 42.' },
    ]);
    const runtime = createRuntime({ bus: memoryBus() });
    const support = defineAgent({
      name: 'support',
      runtime,
      provider: model,
      instructions: 'You resolve support tickets.',
      actions: {
        handle: ({ ticketId }: { ticketId: number }) => ({
          message: `Resolve ticket ${ticketId}`,
          tools: [issueRefund],
        }),
      },
    });

    const paused = await support.handle({ ticketId: 42 }).generateNow();
    expect(paused.awaitingInput).toBe(true);
    expect(paused.inputRequests.map((question) => [question.toolCallId, question.prompt])).toEqual([
      ['call_refund', 'Refund $30 on order 42?'],
    ]);
    expect(refunds).toEqual([]); // nothing ran before the person said yes

    const done = await runtime.answer(paused.generationId, { call_refund: true });
    expect(refunds).toEqual([{ orderId: 42, amount: 30 }]); // once
    expect(done.text).toBe('I refunded $30 on order 42.');
    expect(model.requests).toHaveLength(2); // the model saw the tool's result on its second call
    expect(JSON.stringify(model.requests[1]?.messages.at(-1))).toContain('refunded');
    await runtime.close();
  });
});
