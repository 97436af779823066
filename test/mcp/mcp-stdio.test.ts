import { mcpServer } from '@interlude/providers/mcp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStdioServerState, type StdioServerState } from '../support/mcp-stdio-state.js';
import { ticketAgent, toolResultsIn } from '../support/mcp-ticket-agent.js';

let server: StdioServerState;
beforeEach(async () => {
  server = await createStdioServerState();
});
afterEach(async () => {
  await server.remove();
});

const gatedTickets = () => mcpServer(server.params, { requireApproval: ['close_ticket'] });

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('an MCP server over stdio', () => {
  it('a gated call pauses before the server sees it, and the paused server process has exited', async () => {
    const { agent } = ticketAgent(gatedTickets);
    const paused = await agent.handle({ ticketId: 7 }).generateNow();

    expect(paused.awaitingInput).toBe(true);
    expect(paused.inputRequests.map((request) => [request.toolCallId, request.prompt])).toEqual([
      ['call_close', 'Allow close_ticket to run?'],
    ]);
    expect(paused.checkpoint?.mcp_tool_calls).toEqual(['call_close']);
    expect(paused.checkpoint?.approval_tool_calls).toEqual(['call_close']);
    expect(await server.calls()).toEqual([{ tool: 'lookup_ticket', arguments: { ticket_id: 7 } }]);
    const [pid] = await server.started();
    expect(await server.exited()).toEqual([pid]);
    expect(isAlive(pid as number)).toBe(false);
  });

  it('approved, the call runs once on a server started again for the resume', async () => {
    const { agent, provider } = ticketAgent(gatedTickets);
    const paused = await agent.handle({ ticketId: 7 }).generateNow();
    // The checkpoint as a database gives it back: plain JSON.
    const checkpoint = JSON.parse(JSON.stringify(paused.checkpoint));
    const done = await agent.handle({ ticketId: 7 }).resumeNow({ checkpoint, answers: { call_close: true } });

    expect(done.text).toBe('Ticket 7 is closed.');
    expect(await server.calls()).toEqual([
      { tool: 'lookup_ticket', arguments: { ticket_id: 7 } },
      { tool: 'close_ticket', arguments: { ticket_id: 7, reason: 'solved' } },
    ]);
    expect(await server.started()).toHaveLength(2);
    expect(await server.exited()).toEqual(await server.started());
    expect(toolResultsIn(provider.requests[1])).toEqual({
      call_lookup: { ticket_id: 7, status: 'open' },
      call_close: { closed: 7 },
    });
  });

  it('declined, the server never sees the call', async () => {
    const { agent, provider } = ticketAgent(gatedTickets);
    const paused = await agent.handle({ ticketId: 7 }).generateNow();
    await agent.handle({ ticketId: 7 }).resumeNow({ checkpoint: paused.checkpoint!, answers: { call_close: false } });

    expect((await server.calls()).map((call) => call.tool)).toEqual(['lookup_ticket']);
    expect(toolResultsIn(provider.requests[1])['call_close']).toEqual({ error: 'declined by user' });
  });

  it('a tool the server no longer offers at resume gets the error result and never reaches the server', async () => {
    const { agent, provider } = ticketAgent(gatedTickets);
    const paused = await agent.handle({ ticketId: 7 }).generateNow();
    await server.offer(['lookup_ticket']);
    const done = await agent
      .handle({ ticketId: 7 })
      .resumeNow({ checkpoint: paused.checkpoint!, answers: { call_close: true } });

    expect(done.status).toBe('completed');
    expect(toolResultsIn(provider.requests[1])['call_close']).toEqual({
      error: 'close_ticket is no longer offered by its MCP server',
    });
    expect((await server.calls()).map((call) => call.tool)).toEqual(['lookup_ticket']);
  });
});
