/**
 * The MCP SDK's server side, for the test servers. `@modelcontextprotocol/sdk` is a dependency of
 * `@interlude/providers`, not of `test/`, so it is reached through that package's install.
 */

export { Client } from '../../packages/providers/node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js';
export { StreamableHTTPClientTransport } from '../../packages/providers/node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.js';
export { McpServer } from '../../packages/providers/node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.js';
export { StdioServerTransport } from '../../packages/providers/node_modules/@modelcontextprotocol/sdk/dist/esm/server/stdio.js';
export { StreamableHTTPServerTransport } from '../../packages/providers/node_modules/@modelcontextprotocol/sdk/dist/esm/server/streamableHttp.js';
export { isInitializeRequest } from '../../packages/providers/node_modules/@modelcontextprotocol/sdk/dist/esm/types.js';
