import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ChildScript, watchChild } from './bus-child-process.js';

const testRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The `interlude-worker` bin as pnpm linked it for this workspace package. */
export const WORKER_BIN = join(testRoot, 'node_modules', '.bin', 'interlude-worker');

/** A running `interlude-worker`, with the health URL it printed once it listens. */
export interface WorkerBin extends ChildScript {
  /** Resolves with `http://host:port` from its `health on …` line. */
  healthUrl(): Promise<string>;
}

/**
 * Starts the bin the documented way in a TypeScript workspace:
 * `NODE_OPTIONS='--import tsx' interlude-worker <module>`, from the test package's folder, with
 * `env` added to this process's environment (the suite's INTERLUDE_CHECKPOINT_KEY included).
 */
export function startWorkerBin(modulePath: string, env: Record<string, string>): WorkerBin {
  const child = spawn(WORKER_BIN, [modulePath], {
    cwd: testRoot,
    env: { ...process.env, NODE_OPTIONS: '--import tsx', INTERLUDE_HEALTH_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const watched = watchChild(child, 'interlude-worker');
  return {
    ...watched,
    async healthUrl() {
      const line = await watched.waitForLine(/^interlude-worker: health on /);
      return /health on (http:\/\/[^/\s]+)\/healthz/.exec(line)?.[1] as string;
    },
  };
}

/** GET a health endpoint: its status and JSON body. */
export async function probe(url: string): Promise<{ status: number; body: { status?: string; reason?: string } }> {
  const response = await fetch(url);
  return { status: response.status, body: (await response.json()) as { status?: string; reason?: string } };
}
