import type { McpConnection } from './connect-mcp-client.js';

export interface SharedMcpConnection {
  /** The live connection, connecting first when no run holds one. */
  acquire(): Promise<McpConnection>;
  /** Gives the connection back; the last run to give it back closes it. */
  release(): Promise<void>;
}

/**
 * One connection per toolset, counted by the runs that use it. Core opens a toolset when a run
 * starts and closes it when the run stops; an action may hand the same `mcpServer()` value to
 * several generations at once, so a pause must not close the connection another run is calling
 * through. When no run holds it, nothing is connected (a `command` server has exited).
 */
export function sharedMcpConnection(connect: () => Promise<McpConnection>): SharedMcpConnection {
  let current: Promise<McpConnection> | undefined;
  let users = 0;
  return {
    async acquire() {
      users += 1;
      current ??= connect();
      const connecting = current;
      try {
        return await connecting;
      } catch (error) {
        users -= 1;
        // A failed connect is forgotten, so the next run tries again rather than reusing the failure.
        if (current === connecting) current = undefined;
        throw error;
      }
    },
    async release() {
      if (users === 0) return;
      users -= 1;
      if (users > 0 || current === undefined) return;
      const closing = current;
      current = undefined;
      await (await closing).close();
    },
  };
}
