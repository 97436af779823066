import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import { basename } from 'node:path';

/**
 * Setup file of the fast tier (`pnpm test:fast`): it starts no server or long-lived process, so no
 * nats-server, PostgreSQL, worker, demo, browser or `pnpm pack`. Every way of starting a process
 * throws, naming the way out, so a test that needs one fails here at once instead of slowing the
 * inner loop down: list it in `SERVER_TESTS` (vitest.config.ts) and it runs with the servers.
 * Only the quick read-only tools in `QUICK_TOOLS` may run.
 */
const QUICK_TOOLS = new Set(['git']);
const STARTERS = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;

for (const name of STARTERS) {
  const original = childProcess[name] as (...args: unknown[]) => unknown;
  childProcess[name] = ((...args: unknown[]) => {
    const command = typeof args[0] === 'string' ? basename(args[0].split(' ')[0] as string) : '';
    if (name !== 'fork' && QUICK_TOOLS.has(command)) return original(...args);
    throw new Error(
      `the fast tier starts no process (child_process.${name} ${command}): list this test in SERVER_TESTS in vitest.config.ts`,
    );
  }) as never;
}
// `import { spawn } from 'node:child_process'` reads the ES module's own bindings: update them too.
syncBuiltinESMExports();
