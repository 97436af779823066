import type { AgentsFactory } from '@interlude/bus';
import { defineAgent, InputRequest, tool } from '@interlude/core';
import { anthropic } from '@interlude/providers/anthropic';
import { z } from 'zod';

// The module `interlude-worker` runs: its default export defines the agents on the runtime the
// worker made from its environment (NATS_URL, INTERLUDE_CHECKPOINT_KEY, …) and returns them.
const agents: AgentsFactory = (runtime) => {
  const issueRefund = tool({
    name: 'issue_refund',
    description: 'Refund part of an order',
    input: z.object({ order_id: z.number(), amount: z.number() }),
    async run({ order_id, amount }, ctx) {
      if (ctx.answer === undefined) return InputRequest.confirm(`Refund $${amount} on order ${order_id}?`);
      console.log(`refunded $${amount} on order ${order_id}`); // your payment system, once approved
      return { refunded: amount };
    },
  });
  const support = defineAgent({
    name: 'support',
    runtime, // the worker's: its jobs, checkpoints and events go through NATS
    provider: anthropic({ model: 'claude-sonnet-5-5' }), // reads ANTHROPIC_API_KEY
    instructions: 'You resolve support tickets.',
    actions: {
      handle: ({ ticketId }: { ticketId: number }) => ({ message: `Resolve ticket ${ticketId}`, tools: [issueRefund] }),
    },
  });
  return [support];
};
export default agents;
