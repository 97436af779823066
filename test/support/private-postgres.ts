import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A PostgreSQL cluster of this test run only: its own data folder, its own port. */
export interface PrivatePostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`, trust auth on loopback. */
  url: string;
  /** Stops the server (fast shutdown) and removes its data folder. */
  stop(): Promise<void>;
}

/**
 * Makes a throwaway cluster with `initdb` in a temporary folder and starts `postgres` on a free
 * loopback port, so the suite needs no database set up by hand and never touches the machine's
 * own server on 5432. `initdb` refuses to run as root, so as root both run as the `postgres` user
 * that Debian's package creates. The server is started behind a small shell that stops it when
 * its standard input closes: the test run holds that pipe, so the server goes away with the run
 * even when the run is killed and never reaches its teardown.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const binaries = findPostgresBinaries();
  const owner = process.getuid?.() === 0 ? await unprivilegedOwner() : undefined;
  const dataDirectory = await mkdtemp(join(tmpdir(), 'interlude-postgres-'));
  try {
    if (owner !== undefined) await chown(dataDirectory, owner.uid, owner.gid);
    await run(
      ...asOwner(owner, join(binaries, 'initdb'), [
        '-D',
        dataDirectory,
        '-U',
        'postgres',
        '-A',
        'trust',
        '-E',
        'UTF8',
        '--locale=C',
        '--no-sync',
      ]),
    );
    const port = await freePort();
    const server = await startServer(owner, join(binaries, 'postgres'), dataDirectory, port);
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      async stop() {
        await stopServer(server);
        await rm(dataDirectory, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dataDirectory, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The folder holding `initdb` and `postgres`: Debian keeps them in `/usr/lib/postgresql/<major>/bin`
 * (newest major first), off the PATH; other systems put them on the PATH.
 */
export function findPostgresBinaries(): string {
  const debianRoot = '/usr/lib/postgresql';
  const debianFolders = existsSync(debianRoot)
    ? readdirSync(debianRoot)
        .filter((major) => /^\d+$/.test(major))
        .sort((left, right) => Number(right) - Number(left))
        .map((major) => join(debianRoot, major, 'bin'))
    : [];
  const pathFolders = (process.env['PATH'] ?? '').split(delimiter).filter((folder) => folder !== '');
  const found = [...debianFolders, ...pathFolders].find(
    (folder) => existsSync(join(folder, 'initdb')) && existsSync(join(folder, 'postgres')),
  );
  if (found === undefined) {
    throw new Error(
      'PostgreSQL is not installed (no initdb and postgres in /usr/lib/postgresql/*/bin or on the PATH): ' +
        "run `bash test/support/ensure-tools.sh` (it installs Debian's postgresql), or set INTERLUDE_POSTGRES_URL to a database the tests may use",
    );
  }
  return found;
}

interface Owner {
  name: string;
  uid: number;
  gid: number;
}

async function unprivilegedOwner(): Promise<Owner> {
  const name = 'postgres';
  const entry = await run('getent', ['passwd', name]).catch(() => undefined);
  const fields = entry?.stdout.trim().split(':');
  if (fields === undefined || fields.length < 4) {
    throw new Error(
      `initdb cannot run as root and there is no "${name}" user to run it as: ` +
        `run \`bash test/support/ensure-tools.sh\` (it creates one), or set INTERLUDE_POSTGRES_URL`,
    );
  }
  return { name, uid: Number(fields[2]), gid: Number(fields[3]) };
}

function asOwner(owner: Owner | undefined, command: string, args: string[]): [string, string[]] {
  return owner === undefined ? [command, args] : ['runuser', ['-u', owner.name, '--', command, ...args]];
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('could not find a free port');
  return address.port;
}

/**
 * `sh -c` script taking the data folder, then the server command: runs the server in the
 * background, stops it (SIGINT: fast shutdown) once stdin closes, and removes the data folder
 * once it has exited.
 */
const STOP_WHEN_STDIN_CLOSES = `data="$1"; shift
exec 3<&0
"$@" </dev/null &
server=$!
{ cat <&3 >/dev/null; kill -INT "$server" 2>/dev/null; } &
wait "$server"
rm -rf "$data"`;

function startServer(
  owner: Owner | undefined,
  postgres: string,
  dataDirectory: string,
  port: number,
): Promise<ChildProcess> {
  const settings = [
    ['listen_addresses', '127.0.0.1'],
    ['unix_socket_directories', dataDirectory],
    ['max_connections', '200'],
    // A throwaway cluster: nothing to lose in a crash, so skip the flushes that make it safe.
    ['fsync', 'off'],
    ['synchronous_commit', 'off'],
    ['full_page_writes', 'off'],
  ].flatMap(([name, value]) => ['-c', `${name}=${value}`]);
  const [command, args] = asOwner(owner, 'sh', [
    '-c',
    STOP_WHEN_STDIN_CLOSES,
    'sh',
    dataDirectory,
    postgres,
    '-D',
    dataDirectory,
    '-p',
    String(port),
    ...settings,
  ]);
  const child = spawn(command, args, { stdio: ['pipe', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    let log = '';
    const fail = (reason: string) => {
      clearTimeout(timer);
      child.stdin?.end();
      reject(new Error(`PostgreSQL did not start on port ${port}: ${reason}\n${log}`));
    };
    const timer = setTimeout(() => fail('not ready within 30 s'), 30_000);
    child.once('error', (error) => fail(error.message));
    child.once('exit', (code) => fail(`exited with code ${code}`));
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (/database system is ready to accept connections/.test(log)) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        child.stderr?.removeAllListeners('data').resume();
        resolve(child);
      }
    });
  });
}

async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.stdin?.end();
  const timer = setTimeout(() => server.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}
