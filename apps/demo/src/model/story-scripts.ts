import { anthropicMessage as reply } from '@interlude/providers/testing';
import { findTicket } from '../desk/tickets.js';
import type { ScriptConversation } from './script-conversation.js';

type Script = (conversation: ScriptConversation) => ReturnType<typeof reply>;

const declined = (result: string | undefined) => result?.includes('declined by user') === true;
const unanswered = (result: string | undefined) => result?.includes('no answer in time') === true;

/** Lookup and refund in one turn (the refund asks); then a final answer that reads the outcome. */
const refundScript: Script = (conversation) => {
  const ticket = findTicket(conversation.ticketId ?? 101);
  const { order_id: orderId, amount } = ticket.details;
  const refund = conversation.results.get('issue_refund');
  if (refund === undefined) {
    return reply(`Let me check order ${orderId} and refund $${amount}.`, [
      { id: 'toolu_lookup_01', name: 'lookup_order', input: { order_id: orderId } },
      { id: 'toolu_refund_01', name: 'issue_refund', input: { order_id: orderId, amount } },
    ]);
  }
  if (declined(refund)) {
    return reply(`A person declined the $${amount} refund on order ${orderId}, so nothing was refunded.`);
  }
  if (unanswered(refund)) {
    return reply(`Nobody answered about the $${amount} refund on order ${orderId} in time, so nothing was refunded.`);
  }
  return reply(`Refunded $${amount} on order ${orderId}. ${ticket.customer} gets it in 3 to 5 business days.`);
};

/** Asks the reporter (text), then has the lead pick a priority (choice), then sums up. */
const triageScript: Script = (conversation) => {
  const reporter = conversation.results.get('ask_reporter');
  const priority = conversation.results.get('set_priority');
  if (reporter === undefined) {
    return reply('I need more detail before I can triage this.', [
      {
        id: 'toolu_ask_01',
        name: 'ask_reporter',
        input: { question: 'What do you see when the login page spins? Browser and any error text help.' },
      },
    ]);
  }
  const said = readField(reporter, 'reporter_said') ?? 'no details';
  if (priority === undefined) {
    return reply('Thanks, that narrows it down.', [
      {
        id: 'toolu_priority_01',
        name: 'set_priority',
        input: { ticket_id: conversation.ticketId ?? 103, summary: `Reporter says: ${said}` },
      },
    ]);
  }
  const picked = readField(priority, 'priority') ?? 'unset';
  return reply(`Ticket ${conversation.ticketId ?? 103} triaged as ${picked}. Reporter says: ${said}`);
};

/** One gated call; the tool itself then asks for the token. */
const deployScript: Script = (conversation) => {
  const { service, version, environment } = findTicket(conversation.ticketId ?? 104).details;
  const deploy = conversation.results.get('deploy_release');
  if (deploy === undefined) {
    return reply(`Deploying ${service} ${version} to ${environment}.`, [
      { id: 'toolu_deploy_01', name: 'deploy_release', input: { service, version, environment } },
    ]);
  }
  if (declined(deploy)) return reply(`Deploy of ${service} ${version} cancelled: a person declined it.`);
  if (deploy.includes('"error"')) return reply(`The deploy of ${service} ${version} failed: ${deploy}`);
  return reply(`${service} ${version} is live in ${environment}. Tool said: ${deploy}`);
};

/** Delegates to billing, then asks a person to confirm the credit billing found. */
const managerScript: Script = (conversation) => {
  const ticket = findTicket(conversation.ticketId ?? 105);
  const { amount, invoice } = ticket.details;
  const findings = conversation.results.get('ask_billing');
  const credit = conversation.results.get('issue_credit');
  if (findings === undefined) {
    return reply('This is a billing question; asking the billing agent.', [
      {
        id: 'toolu_billing_01',
        name: 'ask_billing',
        input: { customer: ticket.customer, question: 'Was this customer charged twice in March?' },
      },
    ]);
  }
  if (credit === undefined) {
    return reply(`Billing says: ${unquote(findings)}`, [
      { id: 'toolu_credit_01', name: 'issue_credit', input: { customer: ticket.customer, amount, invoice } },
    ]);
  }
  if (declined(credit))
    return reply(`The $${amount} credit was declined by a person; ${ticket.customer} keeps both charges for now.`);
  return reply(`Credited ${ticket.customer} $${amount} for the duplicate ${invoice}.`);
};

/** The delegated billing agent: reads the invoices, then answers in one paragraph. */
const billingScript: Script = (conversation) => {
  const invoices = conversation.results.get('list_invoices');
  const customer = /customer: ([^)]+)\)/.exec(conversation.userText)?.[1] ?? 'Lena Park';
  if (invoices === undefined) {
    return reply('', [{ id: 'toolu_invoices_01', name: 'list_invoices', input: { customer } }]);
  }
  return reply(`${customer} was charged $49 twice in March (INV-3107 and INV-3108); INV-3108 is the duplicate.`);
};

/** The script of each agent, found by a tool only that agent offers. */
const SCRIPTS: Array<{ tool: string; script: Script }> = [
  { tool: 'issue_refund', script: refundScript },
  { tool: 'ask_reporter', script: triageScript },
  { tool: 'deploy_release', script: deployScript },
  { tool: 'ask_billing', script: managerScript },
  { tool: 'list_invoices', script: billingScript },
];

/** The scripted model's next message for a request, or a plain answer for a request no story expects. */
export function scriptedReply(conversation: ScriptConversation): ReturnType<typeof reply> {
  const match = SCRIPTS.find((entry) => conversation.toolNames.includes(entry.tool));
  return match ? match.script(conversation) : reply('I only know the demo stories.');
}

function readField(result: string, field: string): string | undefined {
  try {
    const value = (JSON.parse(result) as Record<string, unknown>)[field];
    return value === undefined ? undefined : String(value);
  } catch {
    return undefined;
  }
}

function unquote(result: string): string {
  try {
    const value: unknown = JSON.parse(result);
    return typeof value === 'string' ? value : result;
  } catch {
    return result;
  }
}
