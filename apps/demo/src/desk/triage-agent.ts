import {
  type ContextBinding,
  defineAgent,
  InputRequest,
  type ProviderAdapter,
  type Runtime,
  tool,
} from '@interlude/core';
import { z } from 'zod';
import { findTicket, ticketMessage } from './tickets.js';

/** Free text from the reporter: the first pause of the triage story. */
const askReporter = tool({
  name: 'ask_reporter',
  description: 'Ask the person who filed the ticket a question and wait for their reply',
  input: z.object({ question: z.string() }),
  async run({ question }, ctx) {
    if (ctx.answer === undefined) return InputRequest.text(question);
    return { reporter_said: ctx.answer };
  },
});

const PRIORITIES = [
  { value: 'low', label: 'Low: next sprint' },
  { value: 'normal', label: 'Normal: this week' },
  { value: 'urgent', label: 'Urgent: page the on-call' },
];

/** A choice among fixed options: the second pause, after the model has read the reply. */
const setPriority = tool({
  name: 'set_priority',
  description: 'Ask the support lead to pick the priority of a ticket',
  input: z.object({ ticket_id: z.number(), summary: z.string() }),
  async run({ ticket_id, summary }, ctx) {
    if (ctx.answer === undefined) {
      return InputRequest.choice(`Priority for ticket ${ticket_id}? ${summary}`, { options: PRIORITIES });
    }
    return { ticket_id, priority: ctx.answer };
  },
});

/**
 * The triage story: one generation that pauses twice, first for the reporter's own words (text),
 * then for the lead's pick (choice). Each pause is a new checkpoint of the same generation.
 */
export function createTriageAgent(options: { runtime: Runtime; provider: ProviderAdapter; context: ContextBinding }) {
  return defineAgent({
    name: 'triage',
    runtime: options.runtime,
    provider: options.provider,
    context: options.context,
    instructions:
      'You triage bug reports. Ask the reporter for what you need with ask_reporter, then have the lead set a priority with set_priority.',
    actions: {
      triage: ({ ticketId }: { ticketId: number }) => ({
        message: ticketMessage(findTicket(ticketId)),
        tools: [askReporter, setPriority],
      }),
    },
  });
}
