import { defineAgent, InputRequest, tool } from '@interlude/core';
import { anthropic } from '@interlude/providers/anthropic';
import { z } from 'zod';

// Stand-ins for your own systems: where refunds go, and where paused generations wait.
const refunds: { orderId: number; amount: number }[] = [];
const pausedGenerations = new Map<string, string>();

const issueRefund = tool({
  name: 'issue_refund',
  description: 'Refund part of an order',
  input: z.object({ order_id: z.number(), amount: z.number() }),
  async run({ order_id, amount }, ctx) {
    if (ctx.answer === undefined) return InputRequest.confirm(`Refund $${amount} on order ${order_id}?`);
    refunds.push({ orderId: order_id, amount }); // runs once, after a person said yes
    return { refunded: amount };
  },
});

const support = defineAgent({
  name: 'support',
  provider: anthropic({ model: 'claude-sonnet-5-5' }), // reads ANTHROPIC_API_KEY
  instructions: 'You resolve support tickets.',
  actions: {
    handle: ({ ticketId }: { ticketId: number }) => ({ message: `Resolve ticket ${ticketId}`, tools: [issueRefund] }),
  },
});

const response = await support.handle({ ticketId: 42 }).generateNow();
if (response.awaitingInput) {
  // The checkpoint is plain JSON: keep it wherever you like, and ask a person.
  pausedGenerations.set(response.generationId, JSON.stringify(response.checkpoint));
  const answers: Record<string, boolean> = {};
  for (const question of response.inputRequests) {
    console.log(question.prompt); // Refund $30 on order 42?
    answers[question.toolCallId] = true; // what the person said, keyed by the call that asked
  }

  // Later, in any process with the same INTERLUDE_CHECKPOINT_KEY (checkpoints are signed): the action
  // runs again to rebuild its tools, and the refund runs once.
  const checkpoint = JSON.parse(pausedGenerations.get(response.generationId) ?? 'null');
  const done = await support.handle({ ticketId: 42 }).resumeNow({ checkpoint, answers });
  console.log(done.text, refunds); // I refunded $30 on order 42. [ { orderId: 42, amount: 30 } ]
}
