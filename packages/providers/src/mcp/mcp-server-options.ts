/** An MCP server Interlude starts itself, over stdio: started again on every run. */
export interface McpCommandServer {
  /** Names the server in `mcp_tool_calls`, errors and spans. */
  name: string;
  command: string;
  args?: readonly string[];
  /** Added to a small safe environment (PATH, HOME, …): the parent's secrets are not passed on. */
  env?: Readonly<Record<string, string>>;
  cwd?: string;
}

/** An MCP server reached over streamable HTTP. */
export interface McpUrlServer {
  name: string;
  url: string | URL;
  /** Sent with every request, e.g. `{ authorization: 'Bearer …' }`. */
  headers?: Readonly<Record<string, string>>;
}

export type McpServerParams = McpCommandServer | McpUrlServer;

export interface McpServerOptions {
  /**
   * Which of the server's tools wait for a person's approval before the call reaches the server:
   * `'always'`, `'never'` (the default) or a list of tool names.
   */
  requireApproval?: 'always' | 'never' | readonly string[];
  /** Offer only these tools of the server; the others are never shown to the model. */
  allowedTools?: readonly string[];
}

/** The options, checked: which tool names are gated and which are offered. */
export interface ResolvedMcpOptions {
  isGated(toolName: string): boolean;
  isAllowed(toolName: string): boolean;
}

/**
 * Checks `mcpServer()`'s arguments when it is called, so a typo fails before any generation
 * starts rather than as a failed run: a bad `requireApproval` or `allowedTools` is a `TypeError`.
 */
export function resolveMcpOptions(params: McpServerParams, options: McpServerOptions): ResolvedMcpOptions {
  checkParams(params);
  const gate = parseRequireApproval(options.requireApproval);
  const allowed = options.allowedTools === undefined ? undefined : parseNames(options.allowedTools, 'allowedTools');
  return {
    isGated: (toolName) => gate === 'always' || (gate !== 'never' && gate.has(toolName)),
    isAllowed: (toolName) => allowed === undefined || allowed.has(toolName),
  };
}

export function isCommandServer(params: McpServerParams): params is McpCommandServer {
  return 'command' in params && params.command !== undefined;
}

function checkParams(params: McpServerParams): void {
  if (typeof params !== 'object' || params === null)
    throw new TypeError('mcpServer needs { name, command } or { name, url }');
  if (typeof params.name !== 'string' || params.name.length === 0) {
    throw new TypeError('mcpServer needs a non-empty name');
  }
  const hasCommand = 'command' in params && params.command !== undefined;
  const hasUrl = 'url' in params && params.url !== undefined;
  if (hasCommand === hasUrl) {
    throw new TypeError(`MCP server ${params.name} needs exactly one of command or url`);
  }
  if (hasCommand && (typeof params.command !== 'string' || params.command.length === 0)) {
    throw new TypeError(`MCP server ${params.name}: command must be a non-empty string`);
  }
  if (hasCommand && params.args !== undefined) parseNames(params.args, 'args');
  if (hasUrl) new URL(String(params.url));
}

function parseRequireApproval(value: unknown): 'always' | 'never' | Set<string> {
  if (value === undefined || value === 'never') return 'never';
  if (value === 'always') return 'always';
  if (Array.isArray(value)) return parseNames(value, 'requireApproval');
  throw new TypeError(
    `requireApproval must be 'always', 'never' or an array of tool names, got ${value === null ? 'null' : JSON.stringify(value)}`,
  );
}

function parseNames(value: unknown, option: string): Set<string> {
  if (!Array.isArray(value) || !value.every((name) => typeof name === 'string')) {
    throw new TypeError(`${option} must be an array of strings`);
  }
  return new Set(value);
}
