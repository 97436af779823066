import type { Tool } from './tool.js';

/**
 * A source of tools known only once connected, such as an MCP server. A generation opens its
 * toolsets when a run starts and closes them when it stops (paused, done or failed), so a paused
 * generation holds no connection; a resume opens them again.
 */
export interface Toolset {
  readonly kind: 'toolset';
  readonly name: string;
  /** Connects and lists the tools; each carries `mcpServer` (and `requiresApproval` when gated). */
  open(): Promise<Tool[]>;
  close(): Promise<void>;
}

export function isToolset(value: unknown): value is Toolset {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'toolset';
}
