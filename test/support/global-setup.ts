import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildChildBundles } from './child-bundles.js';
import { type PrivatePostgres, startPrivatePostgres } from './private-postgres.js';
import 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A private nats-server with JetStream, started for this test run. */
    natsUrl: string;
    /** `INTERLUDE_POSTGRES_URL`, or a private PostgreSQL started for this test run. */
    postgresUrl: string;
  }
}

/** The servers of this run, and how many projects (tiers) use them. */
interface RunServers {
  started: Promise<{ natsUrl: string; postgresUrl: string }>;
  /** The child scripts' bundles, built beside the servers' start (removed with the servers). */
  bundled: Promise<{ remove(): Promise<void> }>;
  stop(): Promise<void>;
  users: number;
}

// Each vitest project loads this file on its own; both server tiers share one pair of servers
// through the main process's global object.
const RUN_SERVERS = Symbol.for('interlude.test.run-servers');
const holder = globalThis as { [RUN_SERVERS]?: RunServers };

/**
 * Starts one private nats-server (JetStream, random port) for the whole run, and a private
 * PostgreSQL unless `INTERLUDE_POSTGRES_URL` names a database to use, so tests never touch the
 * machine's shared servers and leave nothing behind. Fails loudly when either cannot start.
 */
export async function setup(project: TestProject): Promise<void> {
  holder[RUN_SERVERS] ??= startRunServers();
  const servers = holder[RUN_SERVERS];
  servers.users += 1;
  const [{ natsUrl, postgresUrl }] = await Promise.all([servers.started, servers.bundled]);
  project.provide('natsUrl', natsUrl);
  project.provide('postgresUrl', postgresUrl);
}

export async function teardown(): Promise<void> {
  const servers = holder[RUN_SERVERS];
  if (servers === undefined) return;
  servers.users -= 1;
  if (servers.users > 0) return;
  delete holder[RUN_SERVERS];
  await servers.stop();
}

function startRunServers(): RunServers {
  let server: ChildProcess | undefined;
  let storeDir: string | undefined;
  let postgres: PrivatePostgres | undefined;
  const started = (async () => {
    storeDir = await mkdtemp(join(tmpdir(), 'interlude-nats-'));
    const configuredPostgres = process.env['INTERLUDE_POSTGRES_URL'] || undefined;
    const [nats, postgresUrl] = await Promise.all([
      startNatsServer(storeDir),
      configuredPostgres ??
        startPrivatePostgres().then((started) => {
          postgres = started;
          return started.url;
        }),
    ]);
    server = nats.process;
    return { natsUrl: nats.url, postgresUrl };
  })();
  const bundled = buildChildBundles();
  return {
    started,
    bundled,
    users: 0,
    async stop() {
      await (await bundled.catch(() => undefined))?.remove();
      server?.kill('SIGTERM');
      await postgres?.stop();
      if (storeDir !== undefined) await rm(storeDir, { recursive: true, force: true });
    },
  };
}

export interface StartedNatsServer {
  url: string;
  port: number;
  process: ChildProcess;
}

/** How to start a server beyond the defaults: a configuration file, and environment variables it reads. */
export interface NatsServerSetup {
  /** A nats-server configuration file (`-c`): users, permissions, TLS. Flags still set the store and port. */
  configFile?: string;
  /** Variables the configuration reads (`$NAME`), e.g. passwords. */
  env?: Record<string, string>;
  /** False: a server without JetStream (what the bus refuses). Default true. */
  jetstream?: boolean;
}

/** Spawns `nats-server -js` (unless `setup.jetstream` is false) on `port` (a free one when -1) and resolves once it listens. */
export function startNatsServer(
  storeDirectory: string,
  port = -1,
  setup: NatsServerSetup = {},
): Promise<StartedNatsServer> {
  return new Promise((resolve, reject) => {
    const config = setup.configFile === undefined ? [] : ['-c', setup.configFile];
    const child = spawn(
      'nats-server',
      [
        ...config,
        ...(setup.jetstream === false ? [] : ['-js', '-sd', storeDirectory]),
        '-a',
        '127.0.0.1',
        '-p',
        String(port),
      ],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { ...process.env, ...setup.env },
      },
    );
    let log = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`nats-server did not start within 10 s:\n${log}`));
    }, 10_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`nats-server could not start (is it installed? apt-get install nats-server): ${error.message}`));
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const match = /Listening for client connections on [\d.]+:(\d+)/.exec(log);
      if (match && /Server is ready/.test(log)) {
        clearTimeout(timer);
        const actualPort = Number(match[1]);
        resolve({ url: `nats://127.0.0.1:${actualPort}`, port: actualPort, process: child });
      }
    });
  });
}
