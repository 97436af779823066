import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const demoDirectory = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'apps', 'demo');
const run = promisify(execFile);

/** The demo server running as a child process, as `npx -y pnpm@12.4.2 demo` starts it. */
export interface DemoProcess {
  url: string;
  /** Everything it printed, to check nothing secret reached its logs. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts `apps/demo/src/main.ts` under tsx on a free port (`PORT=0`) and resolves with the URL it
 * prints. Model keys and `NATS_URL` are removed from its environment, so it runs on the embedded
 * defaults whatever the machine has set.
 */
export function startDemo(environment: Record<string, string> = {}): Promise<DemoProcess> {
  const { ANTHROPIC_API_KEY: _anthropic, OPENAI_API_KEY: _openai, NATS_URL: _nats, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: demoDirectory,
    env: { ...inherited, PORT: '0', ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = collectOutput(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`The demo did not print its URL in 60 s:\n${output()}`)), 60_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    child.once('exit', (code) => fail(new Error(`The demo exited (${code}) before it printed its URL:\n${output()}`)));
    child.stdout?.on('data', () => {
      const match = /Open (http:\/\/\S+)/.exec(output());
      if (match?.[1] === undefined) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve({ url: match[1], output, stop: () => stopChild(child) });
    });
  });
}

/** Gathers everything a child prints, on stdout and stderr alike, in the order it arrives. */
function collectOutput(child: ChildProcess): () => string {
  let output = '';
  const append = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  return () => output;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** Queues a run of a ticket through the API, as the page's Run agent button does; returns its generation id. */
export async function queueTicketRun(url: string, ticketId: number): Promise<string> {
  const response = await fetch(`${url}/api/tickets/${ticketId}/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
  });
  if (!response.ok) throw new Error(`Running ticket ${ticketId} answered ${response.status}`);
  const { generationId } = (await response.json()) as { generationId: string };
  return generationId;
}

/**
 * Runs the terminal client (`apps/demo/src/cli.ts`) against a demo server and returns what it
 * printed; `NATS_URL` in `environment` makes it read NATS directly where it can.
 */
export async function runCli(url: string, args: string[], environment: Record<string, string> = {}): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    cwd: demoDirectory,
    env: { ...process.env, DEMO_URL: url, NATS_URL: '', ...environment },
    timeout: 20_000,
  });
  return stdout;
}

/** A terminal client left running (`tail`), with what it printed so far. */
export function startCli(url: string, args: string[]): { output(): string; stop(): Promise<void> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    cwd: demoDirectory,
    env: { ...process.env, DEMO_URL: url, NATS_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = collectOutput(child);
  return { output, stop: () => stopChild(child) };
}

/** Reads the server's event stream (`/api/events`) into text until `stop()`: what any subscriber could see. */
export function recordEventStream(url: string): { text(): string; stop(): void; ready: Promise<void> } {
  const controller = new AbortController();
  let text = '';
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  void (async () => {
    const response = await fetch(`${url}/api/events`, { signal: controller.signal });
    const decoder = new TextDecoder();
    for await (const chunk of response.body ?? []) {
      text += decoder.decode(chunk as Uint8Array, { stream: true });
      markReady();
    }
  })().catch(() => undefined);
  return { text: () => text, stop: () => controller.abort(), ready };
}

/**
 * The questions the demo server lists (`/api/pending`, what `cli pending` prints from), as
 * `generationId toolCallId kind` lines: for a test to wait on a question without starting the
 * terminal client (a process under tsx) at every try.
 */
export async function pendingQuestions(url: string): Promise<string[]> {
  const questions = (await (await fetch(`${url}/api/pending`)).json()) as {
    generationId: string;
    toolCallId: string;
    kind: string;
  }[];
  return questions.map((question) => `${question.generationId} ${question.toolCallId} ${question.kind}`);
}

/** The name of a generation's last event, read from the demo server's API (what `cli replay` reads). */
export async function lastEvent(url: string, generationId: string): Promise<string | undefined> {
  const response = await fetch(`${url}/api/generations/${encodeURIComponent(generationId)}/events`);
  const events = (await response.json()) as { event: string }[];
  return events.at(-1)?.event;
}
