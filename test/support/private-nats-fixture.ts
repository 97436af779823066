import type { Runtime } from '@interlude/core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { ChildScript } from './bus-child-process.js';
import { scratchDirectory } from './configured-nats.js';
import { type StartedNatsServer, startNatsServer } from './global-setup.js';

/** A nats-server of the file's own, a scratch folder, and the processes and runtimes to stop after each test. */
export interface PrivateNatsFixture {
  /** Set in `beforeAll`: read inside tests, not at module load. */
  readonly directory: string;
  readonly server: StartedNatsServer;
  /** Worker processes a test started: SIGKILLed after each test. */
  readonly children: ChildScript[];
  /** Runtimes a test created: closed after each test. */
  readonly runtimes: Runtime[];
}

/**
 * Registers the hooks of a fault test that starts (and may kill) its own nats-server, so a
 * SIGKILL or a stalled worker never touches the suite's shared server.
 */
export function usePrivateNatsServer(scratchPrefix: string): PrivateNatsFixture {
  const fixture = { children: [] as ChildScript[], runtimes: [] as Runtime[] } as {
    directory: string;
    server: StartedNatsServer;
    children: ChildScript[];
    runtimes: Runtime[];
  };
  beforeAll(async () => {
    fixture.directory = await scratchDirectory(scratchPrefix);
    fixture.server = await startNatsServer(`${fixture.directory}/nats`);
  });
  afterEach(async () => {
    await Promise.all(fixture.children.splice(0).map((child) => child.stop('SIGKILL')));
    await Promise.all(fixture.runtimes.splice(0).map((runtime) => runtime.close()));
  });
  afterAll(() => {
    fixture.server?.process.kill('SIGTERM');
  });
  return fixture;
}
