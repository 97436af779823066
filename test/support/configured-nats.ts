import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BusConnectionError } from '@interlude/bus';
import type { Bus } from '@interlude/core';
import { type StartedNatsServer, startNatsServer } from './global-setup.js';

/** A private nats-server started from a configuration the test wrote, and how to end it. */
export interface ConfiguredNats extends StartedNatsServer {
  directory: string;
  stop(): Promise<void>;
}

/** A scratch folder for one test's files (certificates, configurations, the JetStream store). */
export function scratchDirectory(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `interlude-${prefix}-`));
}

/**
 * Writes `configuration` into `directory` and starts a nats-server with JetStream from it on a
 * free loopback port. `env` holds what the configuration reads as `$NAME` (passwords).
 */
export async function startConfiguredNats(
  directory: string,
  configuration: string,
  env: Record<string, string> = {},
): Promise<ConfiguredNats> {
  const configFile = join(directory, 'nats-server.conf');
  await writeFile(configFile, configuration);
  const started = await startNatsServer(join(directory, 'jetstream'), -1, { configFile, env });
  return {
    ...started,
    directory,
    async stop() {
      if (started.process.exitCode === null && started.process.signalCode === null) {
        const gone = new Promise((resolve) => started.process.once('exit', resolve));
        started.process.kill('SIGTERM');
        await gone;
      }
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** A nats-server `tls {}` block for these files; `verify` requires a client certificate signed by the CA. */
export function tlsBlock(files: { serverCertFile: string; serverKeyFile: string; caFile: string }, verify: boolean) {
  return `tls {
  cert_file: "${files.serverCertFile}"
  key_file: "${files.serverKeyFile}"
  ca_file: "${files.caFile}"
  verify: ${verify}
  timeout: 2
}
`;
}

/** What a bus call ends with: `works` once the server let it in, or the code it was refused with. */
export async function connectionOutcome(target: Bus): Promise<string> {
  return target.events('gen_00000000000000000000000000000000').then(
    () => 'works',
    (error: unknown) => (BusConnectionError.isInstance(error) ? error.code : `other: ${String(error)}`),
  );
}
