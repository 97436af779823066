import { createRuntime, defineAgent, type Toolset } from '@interlude/core';
import { type RecordedModelRequest, type ScriptedResponder, scriptedProvider } from '@interlude/core/testing';

/** The model asks to look a ticket up and close it, in one turn, then answers. */
export const closeTicketReplies = (): ScriptedResponder[] => [
  {
    toolCalls: [
      { id: 'call_lookup', name: 'lookup_ticket', arguments: { ticket_id: 7 } },
      { id: 'call_close', name: 'close_ticket', arguments: { ticket_id: 7, reason: 'solved' } },
    ],
  },
  { text: 'Ticket 7 is closed.' },
];

/**
 * A support-desk agent whose only tools come from an MCP server. The action builds the toolset
 * again on every run (as a real action does), so a resume connects afresh.
 */
export function ticketAgent(server: () => Toolset, replies: ScriptedResponder[] = closeTicketReplies()) {
  const provider = scriptedProvider(replies);
  const agent = defineAgent({
    name: 'desk',
    runtime: createRuntime(),
    provider,
    actions: {
      handle: ({ ticketId }: { ticketId: number }) => ({ message: `Close ticket ${ticketId}`, tools: [server()] }),
    },
  });
  return { agent, provider };
}

/** The tool results the model was sent in a request, by tool call id, as it read them. */
export function toolResultsIn(request: RecordedModelRequest | undefined): Record<string, unknown> {
  const last = request?.messages.at(-1) as {
    content?: Array<{ type: string; tool_use_id?: string; content?: string }>;
  };
  const results: Record<string, unknown> = {};
  for (const block of last?.content ?? []) {
    if (block.type === 'tool_result' && block.tool_use_id !== undefined)
      results[block.tool_use_id] = JSON.parse(block.content ?? 'null');
  }
  return results;
}
