/**
 * The ticket MCP server over stdio, started by the client as `node --import tsx mcp-stdio-server.ts`.
 * `MCP_STATE_DIR` holds what the test reads and steers: `calls.jsonl` gets one line per process
 * start (`{ "started": pid }`), per call received and per exit; `offered.json`, when present,
 * lists the tools to offer (read at start, so a change shows on the next connection).
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { StdioServerTransport } from './mcp-sdk.js';
import { createTicketServer, TICKET_TOOLS } from './mcp-ticket-server.js';

const stateDir = process.env['MCP_STATE_DIR'];
if (stateDir === undefined) throw new Error('MCP_STATE_DIR is not set');
const log = (entry: unknown) => appendFileSync(join(stateDir, 'calls.jsonl'), `${JSON.stringify(entry)}\n`);
const offeredFile = join(stateDir, 'offered.json');
const offered: string[] = existsSync(offeredFile) ? JSON.parse(readFileSync(offeredFile, 'utf8')) : [...TICKET_TOOLS];

log({ started: process.pid });
process.on('exit', () => log({ exited: process.pid }));
const server = createTicketServer(offered, (call) => log(call));
await server.connect(new StdioServerTransport());
// The client closes stdin to end the session; leave at once rather than waiting to be killed.
process.stdin.on('end', () => process.exit(0));
