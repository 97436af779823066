import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Counters of the whole server, read from its monitoring port. */
export interface ServerCounters {
  /** Messages clients sent: publishes, JetStream API requests, KV reads, pulls, acks. */
  inMessages: number;
  /** Messages held in every stream now (a KV key keeps one, an acknowledged job none). */
  storedMessages: number;
}

export interface BenchNatsServer {
  url: string;
  /** The server's process id, to read its CPU time. */
  pid: number;
  counters(): Promise<ServerCounters>;
  stop(): Promise<void>;
}

/**
 * A private `nats-server -js` on free ports with its store in a temp dir, plus its monitoring
 * port so the benchmark can count what a cycle costs the server. Never the machine's own server.
 */
export async function startBenchNatsServer(): Promise<BenchNatsServer> {
  const storeDirectory = await mkdtemp(join(tmpdir(), 'interlude-bench-nats-'));
  const child = spawn('nats-server', ['-js', '-sd', storeDirectory, '-a', '127.0.0.1', '-p', '-1', '-m', '-1'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ports = await new Promise<{ client: number; monitor: number }>((resolve, reject) => {
    let log = '';
    const timer = setTimeout(() => reject(new Error(`nats-server did not start within 10 s:\n${log}`)), 10_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`nats-server could not start (apt-get install nats-server): ${error.message}`));
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const client = /Listening for client connections on [\d.]+:(\d+)/.exec(log)?.[1];
      const monitor = /Starting http monitor on [\d.]+:(\d+)/.exec(log)?.[1];
      if (client !== undefined && monitor !== undefined && /Server is ready/.test(log)) {
        clearTimeout(timer);
        resolve({ client: Number(client), monitor: Number(monitor) });
      }
    });
  });
  const monitor = `http://127.0.0.1:${ports.monitor}`;
  const read = async (path: string) => (await fetch(`${monitor}${path}`)).json() as Promise<Record<string, unknown>>;

  return {
    url: `nats://127.0.0.1:${ports.client}`,
    pid: child.pid as number,
    async counters() {
      const [varz, jsz] = await Promise.all([read('/varz'), read('/jsz')]);
      return {
        inMessages: Number(varz['in_msgs']),
        storedMessages: Number(jsz['messages'] ?? 0),
      };
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      await rm(storeDirectory, { recursive: true, force: true });
    },
  };
}
