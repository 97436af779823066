import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childArguments } from './child-bundles.js';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * How long a line may take by default. A child starting up loads the SDKs and the bus; on a
 * 2-core machine shared with other runs that alone can take tens of seconds, and waiting longer
 * costs nothing when it comes sooner.
 */
const STARTUP_BOUND_MS = 60_000;

/** A child running a script, with the lines it printed so far. */
export interface ChildScript {
  process: ChildProcess;
  lines: string[];
  /** Resolves when a printed line matches, rejects on exit or after `timeoutMs`. */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Sends `signal` and resolves once the process is gone (SIGKILL after 5 s if it lingers). */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** What it wrote on stderr so far. */
  errors(): string;
  /** Resolves with its exit code (null when a signal ended it) once it is gone. */
  readonly exited: Promise<number | null>;
}

/**
 * Starts `test/support/<script>` with Node: from the bundle the run built of it, or under tsx
 * (`child-bundles.ts` says which and why).
 */
export function startScript(script: string, env: Record<string, string>): ChildScript {
  const child = spawn(process.execPath, childArguments(join(here, script)), {
    cwd: join(here, '..'),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return watchChild(child, script);
}

/** The lines a child prints, its stderr, and how to wait for a line, stop it or see it exit. */
export function watchChild(child: ChildProcess, script: string): ChildScript {
  const lines: string[] = [];
  let errors = '';
  let buffered = '';
  const listeners = new Set<() => void>();
  child.stdout?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    lines.push(...parts);
    for (const listener of listeners) listener();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.once('exit', () => {
    for (const listener of listeners) listener();
  });

  return {
    process: child,
    lines,
    errors: () => errors,
    exited,
    waitForLine(pattern, timeoutMs = STARTUP_BOUND_MS) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = lines.find((line) => pattern.test(line));
          if (found !== undefined) return finish(() => resolve(found));
          if (child.exitCode !== null || child.signalCode !== null) {
            finish(() => reject(new Error(`${script} exited before printing ${pattern}:\n${errors}`)));
          }
        };
        const timer = setTimeout(
          () => finish(() => reject(new Error(`${script} did not print ${pattern} in ${timeoutMs} ms:\n${errors}`))),
          timeoutMs,
        );
        const finish = (settle: () => void) => {
          clearTimeout(timer);
          listeners.delete(check);
          settle();
        };
        listeners.add(check);
        check();
      });
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
