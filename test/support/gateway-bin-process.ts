import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ChildScript, watchChild } from './bus-child-process.js';

const testRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The `interlude-gateway` bin as pnpm linked it for this workspace package. */
export const GATEWAY_BIN = join(testRoot, 'node_modules', '.bin', 'interlude-gateway');

/** A running `interlude-gateway`, with the URL it printed once it listens. */
export interface GatewayBin extends ChildScript {
  url(): Promise<string>;
}

/**
 * Starts the bin the documented way in a TypeScript workspace (`NODE_OPTIONS='--import tsx'
 * interlude-gateway <module>`) on a free loopback port, with `env` added to this process's
 * environment (the suite's INTERLUDE_CHECKPOINT_KEY included).
 */
export function startGatewayBin(modulePath: string, env: Record<string, string>): GatewayBin {
  const child = spawn(GATEWAY_BIN, [modulePath], {
    cwd: testRoot,
    env: {
      ...process.env,
      NODE_OPTIONS: '--import tsx',
      INTERLUDE_GATEWAY_PORT: '0',
      INTERLUDE_GATEWAY_HOST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const watched = watchChild(child, 'interlude-gateway');
  return {
    ...watched,
    async url() {
      const line = await watched.waitForLine(/^interlude-gateway: listening on /);
      return /listening on (http:\/\/[^\s]+)/.exec(line)?.[1] as string;
    },
  };
}
