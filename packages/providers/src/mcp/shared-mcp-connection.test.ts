import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { describe, expect, it } from 'vitest';
import type { McpConnection } from './connect-mcp-client.js';
import { sharedMcpConnection } from './shared-mcp-connection.js';

function countingConnect() {
  const counts = { connected: 0, closed: 0 };
  const connect = async (): Promise<McpConnection> => {
    counts.connected += 1;
    return {
      client: {} as Client,
      close: async () => {
        counts.closed += 1;
      },
    };
  };
  return { counts, connect };
}

describe('sharedMcpConnection', () => {
  it('keeps one connection while any run holds it and closes it when the last lets go', async () => {
    const { counts, connect } = countingConnect();
    const shared = sharedMcpConnection(connect);
    const [first, second] = await Promise.all([shared.acquire(), shared.acquire()]);
    expect(first).toBe(second);
    await shared.release();
    expect(counts).toEqual({ connected: 1, closed: 0 });
    await shared.release();
    expect(counts).toEqual({ connected: 1, closed: 1 });
  });

  it('connects again after everything was released', async () => {
    const { counts, connect } = countingConnect();
    const shared = sharedMcpConnection(connect);
    await shared.acquire();
    await shared.release();
    await shared.acquire();
    await shared.release();
    expect(counts).toEqual({ connected: 2, closed: 2 });
  });

  it('forgets a failed connect, so the next run tries again', async () => {
    let attempts = 0;
    const shared = sharedMcpConnection(async () => {
      attempts += 1;
      if (attempts === 1) throw new Error('spawn ENOENT');
      return { client: {} as Client, close: async () => {} };
    });
    await expect(shared.acquire()).rejects.toThrow('spawn ENOENT');
    await expect(shared.acquire()).resolves.toBeDefined();
    expect(attempts).toBe(2);
  });
});
