import { defineAgent } from '@interlude/core';
import { scriptedProvider } from '@interlude/core/testing';
import { mcpServer } from '@interlude/providers/mcp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTicketHttpServer, type TicketHttpServer } from '../support/mcp-http-server.js';
import { Client, StreamableHTTPClientTransport } from '../support/mcp-sdk.js';
import { closeTicketReplies, ticketAgent, toolResultsIn } from '../support/mcp-ticket-agent.js';

let server: TicketHttpServer;
beforeEach(async () => {
  server = await startTicketHttpServer();
});
afterEach(async () => {
  await server.close();
});

async function listedByServer() {
  const client = new Client({ name: 'inspector', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  const { tools } = await client.listTools();
  await client.close();
  return tools;
}

describe('MCP tools in a generation', () => {
  it('reach the model with the JSON Schemas the server lists, unchanged', async () => {
    const { agent, provider } = ticketAgent(() => mcpServer({ name: 'tickets', url: server.url }), [{ text: 'Hi.' }]);
    await agent.handle({ ticketId: 7 }).generateNow();

    const listed = await listedByServer();
    expect(provider.requests[0]?.tools).toEqual(
      listed.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema })),
    );
  });

  it('bad arguments go back to the model as an error and never reach the server', async () => {
    const { agent, provider } = ticketAgent(
      () => mcpServer({ name: 'tickets', url: server.url }),
      [
        { toolCalls: [{ id: 'call_bad', name: 'lookup_ticket', arguments: { ticket_id: 'seven' } }] },
        { text: 'Oops.' },
      ],
    );
    await agent.handle({ ticketId: 7 }).generateNow();

    const result = toolResultsIn(provider.requests[1])['call_bad'] as { error: string };
    expect(result.error).toMatch(/^Invalid arguments for lookup_ticket: .*ticket_id/s);
    expect(server.calls).toEqual([]);
  });

  it('an isError result reaches the model as { error } with the server text', async () => {
    const { agent, provider } = ticketAgent(
      () => mcpServer({ name: 'tickets', url: server.url }),
      [{ toolCalls: [{ id: 'call_reopen', name: 'reopen_ticket', arguments: { ticket_id: 7 } }] }, { text: 'Sorry.' }],
    );
    await agent.handle({ ticketId: 7 }).generateNow();

    expect(toolResultsIn(provider.requests[1])['call_reopen']).toEqual({ error: 'ticket 7 is archived' });
    expect(server.calls.map((call) => call.tool)).toEqual(['reopen_ticket']);
  });

  it('allowedTools hides the other tools from the model', async () => {
    const { agent, provider } = ticketAgent(
      () => mcpServer({ name: 'tickets', url: server.url }, { allowedTools: ['lookup_ticket'] }),
      [{ text: 'Hi.' }],
    );
    await agent.handle({ ticketId: 7 }).generateNow();
    expect(provider.requests[0]?.tools.map((tool) => tool.name)).toEqual(['lookup_ticket']);
  });

  it("requireApproval 'always' gates every call of the server before it is sent", async () => {
    const { agent } = ticketAgent(() => mcpServer({ name: 'tickets', url: server.url }, { requireApproval: 'always' }));
    const paused = await agent.handle({ ticketId: 7 }).generateNow();

    expect(paused.checkpoint?.approval_tool_calls).toEqual(['call_lookup', 'call_close']);
    expect(paused.checkpoint?.mcp_tool_calls).toEqual(['call_lookup', 'call_close']);
    expect(server.calls).toEqual([]);
  });

  it('an action-level requiresApproval gates an MCP tool too', async () => {
    const provider = scriptedProvider(closeTicketReplies());
    const agent = defineAgent({
      name: 'desk',
      provider,
      actions: {
        handle: () => ({
          message: 'Close ticket 7',
          tools: [mcpServer({ name: 'tickets', url: server.url })],
          requiresApproval: ['close_ticket'],
        }),
      },
    });
    const paused = await agent.handle().generateNow();

    expect(paused.checkpoint?.approval_tool_calls).toEqual(['call_close']);
    expect(paused.checkpoint?.mcp_tool_calls).toEqual(['call_close']);
    expect(server.calls.map((call) => call.tool)).toEqual(['lookup_ticket']);
  });
});
