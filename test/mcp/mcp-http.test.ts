import { mcpServer } from '@interlude/providers/mcp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTicketHttpServer, type TicketHttpServer } from '../support/mcp-http-server.js';
import { ticketAgent, toolResultsIn } from '../support/mcp-ticket-agent.js';

let server: TicketHttpServer;
beforeEach(async () => {
  server = await startTicketHttpServer();
});
afterEach(async () => {
  await server.close();
});

const gatedTickets = () => mcpServer({ name: 'tickets', url: server.url }, { requireApproval: ['close_ticket'] });

describe('an MCP server over streamable HTTP', () => {
  it('a gated call pauses before the server sees it, and the pause ends the session', async () => {
    const { agent } = ticketAgent(gatedTickets);
    const paused = await agent.handle({ ticketId: 7 }).generateNow();

    expect(paused.inputRequests.map((request) => [request.toolCallId, request.metadata])).toEqual([
      ['call_close', { approval: true }],
    ]);
    expect(paused.checkpoint?.mcp_tool_calls).toEqual(['call_close']);
    expect(server.calls).toEqual([{ tool: 'lookup_ticket', arguments: { ticket_id: 7 } }]);
    expect(server.sessionsOpened()).toBe(1);
    expect(server.openSessions()).toBe(0);
  });

  it('approved, the call runs once over a new session', async () => {
    const { agent, provider } = ticketAgent(gatedTickets);
    const paused = await agent.handle({ ticketId: 7 }).generateNow();
    const done = await agent
      .handle({ ticketId: 7 })
      .resumeNow({ checkpoint: paused.checkpoint!, answers: { call_close: true } });

    expect(done.text).toBe('Ticket 7 is closed.');
    expect(server.calls).toEqual([
      { tool: 'lookup_ticket', arguments: { ticket_id: 7 } },
      { tool: 'close_ticket', arguments: { ticket_id: 7, reason: 'solved' } },
    ]);
    expect(server.sessionsOpened()).toBe(2);
    expect(server.openSessions()).toBe(0);
    expect(toolResultsIn(provider.requests[1])['call_close']).toEqual({ closed: 7 });
  });

  it('declined, the server never sees the call', async () => {
    const { agent, provider } = ticketAgent(gatedTickets);
    const paused = await agent.handle({ ticketId: 7 }).generateNow();
    await agent.handle({ ticketId: 7 }).resumeNow({ checkpoint: paused.checkpoint!, answers: { call_close: false } });

    expect(server.calls.map((call) => call.tool)).toEqual(['lookup_ticket']);
    expect(toolResultsIn(provider.requests[1])['call_close']).toEqual({ error: 'declined by user' });
  });

  it('a tool the server no longer offers at resume gets the error result and never reaches the server', async () => {
    const { agent, provider } = ticketAgent(gatedTickets);
    const paused = await agent.handle({ ticketId: 7 }).generateNow();
    server.offer(['lookup_ticket']);
    await agent.handle({ ticketId: 7 }).resumeNow({ checkpoint: paused.checkpoint!, answers: { call_close: true } });

    expect(toolResultsIn(provider.requests[1])['call_close']).toEqual({
      error: 'close_ticket is no longer offered by its MCP server',
    });
    expect(server.calls.map((call) => call.tool)).toEqual(['lookup_ticket']);
  });
});
