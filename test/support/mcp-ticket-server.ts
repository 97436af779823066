import { z } from 'zod';
import { McpServer } from './mcp-sdk.js';

/** A call as the MCP server received it. */
export interface ReceivedCall {
  tool: string;
  arguments: Record<string, unknown>;
}

export const TICKET_TOOLS = ['lookup_ticket', 'close_ticket', 'reopen_ticket'] as const;

/**
 * A real MCP server (the SDK's `McpServer`) with three ticket tools. It offers only the tools in
 * `offered` (so a test can take one away before a resume) and reports every call it receives.
 * `reopen_ticket` always fails with `isError`.
 */
export function createTicketServer(offered: readonly string[], onCall: (call: ReceivedCall) => void): McpServer {
  const server = new McpServer({ name: 'tickets', version: '1.0.0' });
  const record = (tool: string, args: Record<string, unknown>) => onCall({ tool, arguments: args });
  if (offered.includes('lookup_ticket')) {
    server.registerTool(
      'lookup_ticket',
      { description: 'Find a ticket by id', inputSchema: { ticket_id: z.number().int() } },
      async (args) => {
        record('lookup_ticket', args);
        return { content: [{ type: 'text', text: JSON.stringify({ ticket_id: args.ticket_id, status: 'open' }) }] };
      },
    );
  }
  if (offered.includes('close_ticket')) {
    server.registerTool(
      'close_ticket',
      {
        description: 'Close a ticket',
        inputSchema: { ticket_id: z.number().int(), reason: z.string().optional() },
      },
      async (args) => {
        record('close_ticket', args);
        return { content: [{ type: 'text', text: JSON.stringify({ closed: args.ticket_id }) }] };
      },
    );
  }
  if (offered.includes('reopen_ticket')) {
    server.registerTool(
      'reopen_ticket',
      { description: 'Reopen a ticket', inputSchema: { ticket_id: z.number().int() } },
      async (args) => {
        record('reopen_ticket', args);
        return { isError: true, content: [{ type: 'text', text: `ticket ${args.ticket_id} is archived` }] };
      },
    );
  }
  return server;
}
