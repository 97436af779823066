export { mcpServer } from './mcp-server.js';
export type {
  McpCommandServer,
  McpServerOptions,
  McpServerParams,
  McpUrlServer,
} from './mcp-server-options.js';
