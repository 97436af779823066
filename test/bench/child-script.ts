import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** A benchmark helper process and the lines it prints. */
export interface ChildScript {
  readonly process: ChildProcess;
  /** Called with every line the child prints, as it arrives. */
  onLine(listener: (line: string) => void): void;
  /** Resolves with the first line (from now on or already printed) that matches. */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** SIGTERM, then SIGKILL after 5 s; resolves once the process is gone. */
  stop(): Promise<void>;
}

/**
 * Starts `test/bench/<script>` with `node --expose-gc --import tsx`, the way a deployment runs a
 * worker, so benchmarks measure real processes. A child that dies early rejects every wait.
 */
export function startBenchScript(script: string, env: Record<string, string> = {}): ChildScript {
  // BENCH_CHILD_FLAGS adds node flags to every helper, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`.
  const extraFlags = process.env['BENCH_CHILD_FLAGS']?.split(' ').filter((flag) => flag !== '') ?? [];
  const child = spawn(process.execPath, [...extraFlags, '--expose-gc', '--import', 'tsx', join(here, script)], {
    cwd: join(here, '..'),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const listeners = new Set<(line: string) => void>();
  let buffered = '';
  let errors = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    for (const line of parts) {
      if (lines.length < 1_000) lines.push(line);
      for (const listener of listeners) listener(line);
    }
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-4_000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  return {
    process: child,
    onLine(listener) {
      listeners.add(listener);
    },
    waitForLine(pattern, timeoutMs = 30_000) {
      const early = lines.find((line) => pattern.test(line));
      if (early !== undefined) return Promise.resolve(early);
      return new Promise((resolve, reject) => {
        const listener = (line: string) => {
          if (!pattern.test(line)) return;
          finish();
          resolve(line);
        };
        const timer = setTimeout(() => {
          finish();
          reject(new Error(`${script} did not print ${pattern} within ${timeoutMs} ms\n${errors}`));
        }, timeoutMs);
        const onExit = () => {
          finish();
          reject(new Error(`${script} exited before printing ${pattern}\n${errors}`));
        };
        const finish = () => {
          clearTimeout(timer);
          listeners.delete(listener);
          child.off('exit', onExit);
        };
        listeners.add(listener);
        child.once('exit', onExit);
      });
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
