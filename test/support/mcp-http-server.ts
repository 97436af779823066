import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isInitializeRequest, StreamableHTTPServerTransport } from './mcp-sdk.js';
import { createTicketServer, type ReceivedCall, TICKET_TOOLS } from './mcp-ticket-server.js';

export interface TicketHttpServer {
  url: string;
  /** Every call the server received, in order. */
  calls: ReceivedCall[];
  /** Sessions opened so far, and those still open (a client that closed ended its session). */
  sessionsOpened(): number;
  openSessions(): number;
  /** Tools offered to sessions opened from now on. */
  offer(tools: readonly string[]): void;
  close(): Promise<void>;
}

/**
 * The ticket MCP server over streamable HTTP on a free loopback port, with sessions: each client
 * connection initializes its own session (and its own `McpServer`), which ends when the client
 * sends DELETE on close.
 */
export async function startTicketHttpServer(): Promise<TicketHttpServer> {
  const calls: ReceivedCall[] = [];
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let offered: readonly string[] = [...TICKET_TOOLS];
  let opened = 0;
  const http = createServer(async (request, response) => {
    try {
      const body = request.method === 'POST' ? await readJson(request) : undefined;
      const sessionId = request.headers['mcp-session-id'];
      let transport = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
      if (transport === undefined && request.method === 'POST' && isInitializeRequest(body)) {
        const created = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => {
            opened += 1;
            sessions.set(id, created);
          },
        });
        created.onclose = () => {
          if (created.sessionId !== undefined) sessions.delete(created.sessionId);
        };
        await createTicketServer(offered, (call) => calls.push(call)).connect(created);
        transport = created;
      }
      if (transport === undefined) {
        response.writeHead(404).end(JSON.stringify({ error: 'unknown session' }));
        return;
      }
      await transport.handleRequest(request, response, body);
    } catch (error) {
      if (!response.headersSent) response.writeHead(500);
      response.end(String(error));
    }
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    sessionsOpened: () => opened,
    openSessions: () => sessions.size,
    offer(tools) {
      offered = [...tools];
    },
    async close() {
      await Promise.allSettled([...sessions.values()].map((transport) => transport.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : JSON.parse(text);
}
