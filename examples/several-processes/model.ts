import { startScriptedModel } from '@interlude/providers/testing';

// A fake model every process can share: it speaks the Anthropic wire format and answers each
// request from the conversation it carries, so it keeps no state. Point the processes at it with
// ANTHROPIC_BASE_URL; drop that variable to use the real API.
const model = await startScriptedModel(
  [
    {
      text: 'I will verify the customer and refund the order.',
      toolUses: [
        { id: 'toolu_verify', name: 'verify_identity', input: { customer_id: 7 } },
        { id: 'toolu_refund', name: 'issue_refund', input: { order_id: 42, amount: 30 } },
      ],
    },
    (conversation) => ({
      text: conversation.results.get('verify_identity')?.includes('true')
        ? 'Refunded $30 on order 42.'
        : 'The PIN did not match.',
    }),
  ],
  { port: Number(process.env['MODEL_PORT'] ?? 4010) },
);
console.log(`model: listening on ${model.url}`);
process.once('SIGTERM', () => void model.close());
process.once('SIGINT', () => void model.close());
