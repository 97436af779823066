import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, where `pnpm demo` is typed. */
export const REPOSITORY = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** A command typed into a terminal, with what it printed and how it ended. */
export interface TerminalSession {
  output(): string;
  /** Types Ctrl-C: the terminal sends SIGINT to the whole foreground process group. */
  pressCtrlC(): void;
  /** The command's exit code (`script -e` passes it on), or null when a signal ended it. */
  readonly exited: Promise<number | null>;
  /** Ends the session if it is still running (test cleanup). */
  kill(): void;
}

/**
 * Runs a shell command in a pseudo-terminal (util-linux `script`, in every Debian system), as a
 * person's terminal runs it: pnpm, the shells it starts and the node processes share the
 * foreground process group, and Ctrl-C signals them all at once. That is what makes pnpm print
 * its failure report when a shell in between dies, which a plain `kill` of one child never shows.
 */
export function startInTerminal(command: string, environment: Record<string, string> = {}): TerminalSession {
  const { ANTHROPIC_API_KEY: _anthropic, OPENAI_API_KEY: _openai, NATS_URL: _nats, ...inherited } = process.env;
  // `exec`: the shell `script` starts is replaced by the command. A person's interactive shell
  // is not signalled by Ctrl-C while a command runs in the foreground; a non-interactive one in
  // its place is (dash, the usual /bin/sh, then dies of the SIGINT and reports 130 whatever the
  // command itself exits with).
  const child = spawn('script', ['--quiet', '--flush', '--return', '--command', `exec ${command}`, '/dev/null'], {
    cwd: REPOSITORY,
    env: { ...inherited, ...environment },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  const append = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    output: () => output,
    pressCtrlC: () => child.stdin.write('\u0003'),
    exited,
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}
