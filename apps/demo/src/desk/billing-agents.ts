import {
  type ContextBinding,
  defineAgent,
  delegate,
  InputRequest,
  type ProviderAdapter,
  type Runtime,
  tool,
} from '@interlude/core';
import { z } from 'zod';
import { findTicket, ticketMessage } from './tickets.js';

const INVOICES: Record<string, Array<{ invoice: string; month: string; amount: number }>> = {
  'Lena Park': [
    { invoice: 'INV-3107', month: 'March', amount: 49 },
    { invoice: 'INV-3108', month: 'March', amount: 49 },
    { invoice: 'INV-2990', month: 'February', amount: 49 },
  ],
};

/** Credits a person approved, newest last. */
export const creditsIssued: Array<{ customer: string; amount: number; invoice: string }> = [];

const listInvoices = tool({
  name: 'list_invoices',
  description: "List a customer's invoices",
  input: z.object({ customer: z.string() }),
  async run({ customer }) {
    return { customer, invoices: INVOICES[customer] ?? [] };
  },
});

const issueCredit = tool({
  name: 'issue_credit',
  description: 'Credit a customer for a wrong invoice. A person confirms every credit.',
  input: z.object({ customer: z.string(), amount: z.number(), invoice: z.string() }),
  async run({ customer, amount, invoice }, ctx) {
    if (ctx.answer === undefined) return InputRequest.confirm(`Credit ${customer} $${amount} for ${invoice}?`);
    creditsIssued.push({ customer, amount, invoice });
    return { credited: amount, invoice };
  },
});

/**
 * The delegation story: the manager hands the investigation to the billing agent through
 * `delegate()` (a tool that runs billing's action as a nested generation, which cannot pause),
 * then asks a person to confirm the credit billing found.
 */
export function createBillingAgents(options: { runtime: Runtime; provider: ProviderAdapter; context: ContextBinding }) {
  const billing = defineAgent({
    name: 'billing',
    runtime: options.runtime,
    provider: options.provider,
    instructions: 'You investigate billing questions with list_invoices and answer in one paragraph.',
    actions: {
      investigate: ({ customer, question }: { customer: string; question: string }) => ({
        message: `${question} (customer: ${customer})`,
        tools: [listInvoices],
      }),
    },
  });
  const askBilling = delegate(billing, 'investigate', {
    name: 'ask_billing',
    description: 'Hand a billing question to the billing agent and get its findings',
    input: z.object({ customer: z.string(), question: z.string() }),
  });
  const manager = defineAgent({
    name: 'manager',
    runtime: options.runtime,
    provider: options.provider,
    context: options.context,
    instructions:
      'You run the support desk. Ask billing about charges with ask_billing, then settle with issue_credit.',
    actions: {
      escalate: ({ ticketId }: { ticketId: number }) => ({
        message: ticketMessage(findTicket(ticketId)),
        tools: [askBilling, issueCredit],
      }),
    },
  });
  return { billing, manager };
}
