import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { McpCommandServer } from '@interlude/providers/mcp';
import type { ReceivedCall } from './mcp-ticket-server.js';

const testRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const serverScript = join(testRoot, 'support', 'mcp-stdio-server.ts');

/** A scratch directory the stdio ticket server reports into, and how to read it. */
export interface StdioServerState {
  /** Parameters for `mcpServer()`: the real server, started by the client with `node --import tsx`. */
  params: McpCommandServer;
  /** Calls the server received, over every process it ran as. */
  calls(): Promise<ReceivedCall[]>;
  /** Pids of the server processes started so far, and of those that exited. */
  started(): Promise<number[]>;
  exited(): Promise<number[]>;
  /** Tools the next process start offers. */
  offer(tools: readonly string[]): Promise<void>;
  remove(): Promise<void>;
}

export async function createStdioServerState(): Promise<StdioServerState> {
  const directory = await mkdtemp(join(tmpdir(), 'interlude-mcp-'));
  const entries = async (): Promise<Record<string, unknown>[]> => {
    const text = await readFile(join(directory, 'calls.jsonl'), 'utf8').catch(() => '');
    return text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  };
  return {
    params: {
      name: 'tickets',
      command: process.execPath,
      args: ['--import', 'tsx', serverScript],
      env: { MCP_STATE_DIR: directory },
      cwd: testRoot,
    },
    calls: async () => (await entries()).filter((entry) => 'tool' in entry) as unknown as ReceivedCall[],
    started: async () => (await entries()).flatMap((entry) => ('started' in entry ? [Number(entry['started'])] : [])),
    exited: async () => (await entries()).flatMap((entry) => ('exited' in entry ? [Number(entry['exited'])] : [])),
    offer: (tools) => writeFile(join(directory, 'offered.json'), JSON.stringify(tools)),
    remove: () => rm(directory, { recursive: true, force: true }),
  };
}
