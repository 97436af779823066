import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool as McpToolDescription } from '@modelcontextprotocol/sdk/types.js';

export type { McpToolDescription };

/** Every tool the server lists, following `nextCursor` pages until the end. */
export async function listMcpTools(client: Client): Promise<McpToolDescription[]> {
  const tools: McpToolDescription[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}
