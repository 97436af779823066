import type { Tool } from '@interlude/core';
import type { JsonSchema } from '@interlude/core/provider';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { z } from 'zod';
import type { McpToolDescription } from './list-mcp-tools.js';
import { mcpToolResult } from './mcp-tool-result.js';

type McpArguments = Record<string, unknown>;

/**
 * An MCP tool as a core tool, bound to the connection of the run that listed it. The model sees
 * the server's JSON Schema unchanged; arguments are checked against that same schema before the
 * call, so bad arguments go back to the model as an error and never reach the server. An MCP
 * tool cannot ask a person anything: `run` returns the server's result or throws its error.
 */
export function mcpTool(
  serverName: string,
  description: McpToolDescription,
  client: Client,
  gated: boolean,
): Tool<McpArguments> {
  const name = description.name;
  const validator = schemaValidator(description.inputSchema);
  return {
    name,
    description: description.description ?? description.title ?? `${name} (MCP server ${serverName})`,
    inputSchema: description.inputSchema as JsonSchema,
    mcpServer: serverName,
    ...(gated && { requiresApproval: true }),
    parse(args) {
      const value = args ?? {};
      if (typeof value !== 'object' || Array.isArray(value)) {
        return { success: false, error: `Invalid arguments for ${name}: expected an object` };
      }
      const parsed = validator.safeParse(value);
      if (parsed.success) return { success: true, data: value as McpArguments };
      return { success: false, error: `Invalid arguments for ${name}: ${z.prettifyError(parsed.error)}` };
    },
    async run(input, context) {
      const result = await client.callTool({ name, arguments: input }, undefined, { signal: context.signal });
      return mcpToolResult(name, result as Parameters<typeof mcpToolResult>[1]);
    },
  };
}

/**
 * The tool's JSON Schema as a zod schema. A schema zod cannot read (it is semi-experimental for
 * `fromJSONSchema`) falls back to "any object": the server still validates, and a tool whose
 * schema is unusual is better offered than hidden.
 */
function schemaValidator(schema: McpToolDescription['inputSchema']): z.ZodType {
  try {
    return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    return z.record(z.string(), z.unknown());
  }
}
