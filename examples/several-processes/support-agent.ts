import { natsBus } from '@interlude/bus';
import { createRuntime, defineAgent, InputRequest, type Runtime, tool } from '@interlude/core';
import { anthropic } from '@interlude/providers/anthropic';
import { z } from 'zod';

/** The queue the worker serves and `start.ts` sends to. */
export const QUEUE = process.env['QUEUE'] ?? 'support';

/**
 * Every process connects the same way: one NATS, one INTERLUDE_CHECKPOINT_KEY (a runtime on NATS
 * refuses to start without it). Close the runtime before a short-lived process ends: the NATS
 * connection keeps it alive otherwise.
 */
export function connect(): Runtime {
  return createRuntime({ bus: natsBus({ servers: process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222' }) });
}

/**
 * The support agent, defined on a runtime. Always pass `runtime`: an agent defined without one is
 * bound to the default runtime on the memory bus, which no other process can see. Every process
 * that runs a generation (the worker) or resumes one (`answer.ts`) defines it.
 */
export function defineSupport(runtime: Runtime) {
  const verifyIdentity = tool({
    name: 'verify_identity',
    description: "Check the customer's PIN",
    input: z.object({ customer_id: z.number() }),
    async run({ customer_id }, ctx) {
      if (ctx.answer === undefined) return InputRequest.secret(`PIN of customer ${customer_id}?`);
      return { verified: ctx.answer === '4321' }; // the PIN reaches this tool and nothing else
    },
  });
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
  return defineAgent({
    name: 'support',
    runtime,
    provider: anthropic({ model: 'claude-sonnet-5-5' }), // ANTHROPIC_API_KEY, and ANTHROPIC_BASE_URL if set
    instructions: 'You resolve support tickets.',
    actions: {
      handle: ({ ticketId }: { ticketId: number }) => ({
        message: `Resolve ticket ${ticketId}`,
        tools: [verifyIdentity, issueRefund],
      }),
    },
  });
}
