import type { Tool, Toolset } from '@interlude/core';
import { connectMcpClient } from './connect-mcp-client.js';
import { listMcpTools } from './list-mcp-tools.js';
import { type McpServerOptions, type McpServerParams, resolveMcpOptions } from './mcp-server-options.js';
import { mcpTool } from './mcp-tool.js';
import { sharedMcpConnection } from './shared-mcp-connection.js';

/**
 * Serves an MCP server's tools to an action, through `@modelcontextprotocol/sdk`: put it in the
 * action's `tools` next to plain tools. Core opens it when a run starts and closes it when the run
 * stops, so a paused generation holds no connection and a `command` server is started again on
 * resume. Tools keep the server's JSON Schemas. They cannot ask for input, but can be gated: a
 * gated call pauses for approval before it reaches the server. Options are checked here, so a bad
 * `requireApproval` is a `TypeError` before any generation.
 *
 * @example
 *   const files = mcpServer(
 *     { name: 'files', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/srv/docs'] },
 *     { requireApproval: ['write_file'], allowedTools: ['read_file', 'write_file'] },
 *   );
 *   defineAgent({ …, actions: { edit: () => ({ message: 'Fix the typo in README', tools: [files] }) } });
 */
export function mcpServer(params: McpServerParams, options: McpServerOptions = {}): Toolset {
  const resolved = resolveMcpOptions(params, options);
  const connection = sharedMcpConnection(() => connectMcpClient(params));
  return {
    kind: 'toolset',
    name: params.name,
    async open(): Promise<Tool[]> {
      const { client } = await connection.acquire();
      try {
        const listed = await listMcpTools(client);
        return listed
          .filter((description) => resolved.isAllowed(description.name))
          .map((description) => mcpTool(params.name, description, client, resolved.isGated(description.name)));
      } catch (error) {
        await connection.release();
        throw error;
      }
    },
    close: () => connection.release(),
  };
}
