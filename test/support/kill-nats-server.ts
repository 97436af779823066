import type { StartedNatsServer } from './global-setup.js';

/**
 * Kills a nats-server the way a crash would (SIGKILL, no flush) and resolves once it is gone,
 * so a restart test can start the next one on the same port and store directory.
 */
export async function killNatsServer(server: StartedNatsServer): Promise<void> {
  const exited = new Promise((resolve) => server.process.once('exit', resolve));
  server.process.kill('SIGKILL');
  await exited;
}
