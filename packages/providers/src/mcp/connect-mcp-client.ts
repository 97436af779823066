import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { isCommandServer, type McpServerParams } from './mcp-server-options.js';

/** One live MCP session: the SDK client and how to end it. */
export interface McpConnection {
  client: Client;
  close(): Promise<void>;
}

const clientInfo = { name: 'interlude', version: '0.1.0' };

/**
 * Connects the SDK's client to the server: a `command` server is spawned as a child process
 * speaking stdio, a `url` server is reached over streamable HTTP. Closing ends the session on the
 * server (HTTP) or waits for the process to exit (stdio), so nothing outlives a paused run.
 */
export async function connectMcpClient(params: McpServerParams): Promise<McpConnection> {
  const client = new Client(clientInfo);
  if (isCommandServer(params)) {
    const transport = new StdioClientTransport({
      command: params.command,
      args: [...(params.args ?? [])],
      ...(params.env !== undefined && { env: { ...params.env } }),
      ...(params.cwd !== undefined && { cwd: params.cwd }),
    });
    await client.connect(transport);
    return { client, close: () => client.close() };
  }
  const transport = new StreamableHTTPClientTransport(new URL(String(params.url)), {
    ...(params.headers !== undefined && { requestInit: { headers: { ...params.headers } } }),
  });
  await client.connect(transport);
  return {
    client,
    async close() {
      // Ends the server's session before dropping it; a server without sessions answers 405, which is fine.
      await transport.terminateSession().catch(() => {});
      await client.close();
    },
  };
}
