import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { freePort } from './bus-raw-log.js';

/** One node of a test cluster: a nats-server process of its own, with its own store. */
export interface ClusterNode {
  readonly name: string;
  readonly url: string;
  readonly process: ChildProcess | undefined;
  /** SIGKILLs it (a crash: no flush, no goodbye) and resolves once it is gone. */
  kill(): Promise<void>;
  /** Starts it again on the same ports and store. */
  restart(): Promise<void>;
}

export interface NatsCluster {
  readonly nodes: readonly ClusterNode[];
  /** Every node's client URL, for a client that should fail over between them. */
  readonly urls: string[];
  /** The node that leads `stream` now (its Raft leader). */
  leaderOf(stream: string): Promise<ClusterNode>;
  /**
   * SIGKILLs the node leading `stream`, then polls `$JS.API.STREAM.INFO` through a node left up
   * until `stream` names another leader: the server's own election, from the kill (`killedAt`,
   * `performance.now()`) to the new leader (`electedAt`), with 20 ms of precision. Each of `alsoLed`
   * that the node led too is watched the same way: `elections` holds every stream it led, with the
   * milliseconds from the kill to its new leader.
   */
  killLeaderOf(
    stream: string,
    alsoLed?: readonly string[],
  ): Promise<{ killed: string; killedAt: number; electedAt: number; elections: Record<string, number> }>;
  /** Resolves once JetStream answers through the running nodes (a metadata leader is elected). */
  ready(): Promise<void>;
  /** Kills every node and removes the stores. */
  stop(): Promise<void>;
}

/**
 * Starts a nats-server cluster with JetStream on loopback: `size` processes on free ports, each
 * with its `server_name`, its own store (`-sd`), and a `cluster { name, listen, routes }` block
 * naming the others. The test that starts one stops it (`stop()` in its `afterAll`); nodes can be
 * killed and restarted one by one to test what survives the loss of a server.
 */
export async function startNatsCluster(options: { size?: number; name?: string } = {}): Promise<NatsCluster> {
  const size = options.size ?? 3;
  const directory = await mkdtemp(join(tmpdir(), 'interlude-cluster-'));
  const clusterName = options.name ?? `interlude_${Math.random().toString(36).slice(2, 8)}`;
  const ports = await Promise.all(
    Array.from({ length: size }, async () => ({ client: await freePort(), route: await freePort() })),
  );
  const nodes: (ClusterNode & { start(): Promise<void> })[] = ports.map((port, index) => {
    const name = `n${index + 1}`;
    const config = join(directory, `${name}.conf`);
    let current: ChildProcess | undefined;
    const node = {
      name,
      url: `nats://127.0.0.1:${port.client}`,
      get process() {
        return current;
      },
      async start() {
        const routes = ports
          .filter((_, other) => other !== index)
          .map((other) => `nats-route://127.0.0.1:${other.route}`)
          .join(', ');
        await mkdir(join(directory, name), { recursive: true });
        await writeFile(
          config,
          [
            `server_name: ${name}`,
            `listen: 127.0.0.1:${port.client}`,
            `jetstream { store_dir: "${join(directory, name)}" }`,
            `cluster { name: ${clusterName}, listen: 127.0.0.1:${port.route}, routes: [${routes}] }`,
          ].join('\n'),
        );
        current = await spawnNode(config, name);
      },
      async kill() {
        const running = current;
        if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
        const exited = new Promise((resolve) => running.once('exit', resolve));
        running.kill('SIGKILL');
        await exited;
      },
      async restart() {
        await node.kill();
        await node.start();
      },
    };
    return node;
  });
  await Promise.all(nodes.map((node) => node.start()));
  const urls = nodes.map((node) => node.url);
  const cluster: NatsCluster = {
    nodes,
    urls,
    async leaderOf(stream) {
      const connection = await connect({ servers: urls });
      try {
        const info = await (await jetstreamManager(connection)).streams.info(stream);
        const leader = nodes.find((node) => node.name === info.cluster?.leader);
        if (leader === undefined) throw new Error(`${stream} has no leader now`);
        return leader;
      } finally {
        await connection.close();
      }
    },
    async killLeaderOf(stream, alsoLed = []) {
      const leader = await cluster.leaderOf(stream);
      const survivor = nodes.find((node) => node !== leader) as ClusterNode;
      // Asked through one node left up: a client free to pick its server could ask the dead one.
      const connection = await connect({ servers: survivor.url });
      try {
        const manager = await jetstreamManager(connection, { timeout: 250 });
        const leaderNow = async (name: string) =>
          (await manager.streams.info(name).catch(() => undefined))?.cluster?.leader;
        const led = [stream];
        for (const other of alsoLed) {
          if (other !== stream && (await leaderNow(other)) === leader.name) led.push(other);
        }
        const killedAt = performance.now();
        await leader.kill();
        const elections: Record<string, number> = {};
        let waiting = led;
        for (;;) {
          const leaders = await Promise.all(waiting.map(leaderNow));
          const now = performance.now();
          waiting = waiting.filter((name, index) => {
            const elected = leaders[index] !== undefined && leaders[index] !== leader.name;
            if (elected) elections[name] = Math.round(now - killedAt);
            return !elected;
          });
          if (waiting.length === 0) {
            return { killed: leader.name, killedAt, electedAt: killedAt + (elections[stream] as number), elections };
          }
          await sleep(20);
        }
      } finally {
        await connection.close();
      }
    },
    async ready() {
      const deadline = Date.now() + 30_000;
      for (;;) {
        try {
          const connection = await connect({ servers: urls, timeout: 2_000 });
          try {
            await (await jetstreamManager(connection, { timeout: 2_000 })).getAccountInfo();
            return;
          } finally {
            await connection.close();
          }
        } catch (error) {
          if (Date.now() > deadline) throw new Error(`the cluster's JetStream did not come up: ${String(error)}`);
          await sleep(250);
        }
      }
    },
    async stop() {
      await Promise.all(nodes.map((node) => node.kill()));
      await rm(directory, { recursive: true, force: true });
    },
  };
  await cluster.ready();
  return cluster;
}

/** Spawns one node from its config file and resolves once it listens. */
function spawnNode(config: string, name: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn('nats-server', ['-c', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`cluster node ${name} did not start within 15 s:\n${log}`));
    }, 15_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`nats-server could not start (is it installed? apt-get install nats-server): ${error.message}`));
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (/Server is ready/.test(log)) {
        clearTimeout(timer);
        resolve(child);
      }
    });
  });
}
