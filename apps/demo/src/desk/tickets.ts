/** Which scripted story a ticket plays, and so which agent and action handle it. */
export type Story = 'refund' | 'triage' | 'deploy' | 'billing';

/** One support ticket on the desk: the input of one agent action. */
export interface Ticket {
  id: number;
  customer: string;
  subject: string;
  story: Story;
  /** The agent and action that handle it. */
  agent: string;
  action: string;
  /** Story details the tools read (orders, amounts, releases). */
  details: Record<string, string | number>;
}

/**
 * The desk's inbox. Fixed data, so every newcomer sees the same stories and the tests can name
 * tickets by id: two refunds (approve one, decline the other), a triage, a deploy and a
 * double charge that the manager hands to billing.
 */
export const TICKETS: readonly Ticket[] = [
  {
    id: 101,
    customer: 'Maya Chen',
    subject: 'My blender arrived cracked, please refund the $30 shipping',
    story: 'refund',
    agent: 'support',
    action: 'refund',
    details: { order_id: 1042, amount: 30 },
  },
  {
    id: 102,
    customer: 'Tom Okafor',
    subject: 'I was charged $45 for a course I never started',
    story: 'refund',
    agent: 'support',
    action: 'refund',
    details: { order_id: 2077, amount: 45 },
  },
  {
    id: 103,
    customer: 'Priya Nair',
    subject: 'The login page spins forever',
    story: 'triage',
    agent: 'triage',
    action: 'triage',
    details: {},
  },
  {
    id: 104,
    customer: 'Release bot',
    subject: 'Ship checkout 2.4.1 to production',
    story: 'deploy',
    agent: 'ops',
    action: 'deploy',
    details: { service: 'checkout', version: '2.4.1', environment: 'production' },
  },
  {
    id: 105,
    customer: 'Lena Park',
    subject: 'I was billed twice in March',
    story: 'billing',
    agent: 'manager',
    action: 'escalate',
    details: { amount: 49, invoice: 'INV-3108' },
  },
];

/** The ticket with this id; a `TypeError` names the unknown id (the HTTP layer turns it into a 404). */
export function findTicket(ticketId: number): Ticket {
  const ticket = TICKETS.find((candidate) => candidate.id === ticketId);
  if (ticket === undefined) throw new TypeError(`No ticket ${ticketId}`);
  return ticket;
}

/** The opening user turn of a ticket's generation; the scripted model reads the ticket id from it. */
export function ticketMessage(ticket: Ticket): string {
  return `Support ticket #${ticket.id} from ${ticket.customer}: "${ticket.subject}"`;
}
