import { readAnthropicConversation, type ScriptedConversation } from '@interlude/providers/testing';

/** What a demo story reads of a request: the conversation, and the ticket it is about. */
export interface ScriptConversation extends ScriptedConversation {
  ticketId: number | undefined;
}

/** Reads a Messages request body, and the ticket number its user turn names (`ticket #101`). */
export function readConversation(body: unknown): ScriptConversation {
  const conversation = readAnthropicConversation(body);
  const ticketMatch = /ticket #(\d+)/.exec(conversation.userText);
  return { ...conversation, ticketId: ticketMatch ? Number(ticketMatch[1]) : undefined };
}
