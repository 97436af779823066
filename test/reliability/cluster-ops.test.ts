import { BusUnavailableError, natsBus, natsNames, StreamConfigError } from '@interlude/bus';
import { sampleEvent } from '@interlude/bus/testing';
import type { Bus } from '@interlude/core';
import type { BusHealth } from '@interlude/core/internal';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type NatsCluster, startNatsCluster } from '../support/nats-cluster.js';
import { recordFigure } from '../support/reliability-figures.js';
import { createLedger, type Ledger } from '../support/reliability-ledger.js';
import { waitUntil } from '../support/reliability-wait.js';
import { probe, startWorkerBin, type WorkerBin } from '../support/worker-bin-process.js';

const { allStreams: ALL_STREAMS, checkpointStream: CHECKPOINT_STREAM, eventsStream: EVENTS_STREAM } = natsNames();

let cluster: NatsCluster;
let ledger: Ledger & { drop(): Promise<void> };
const buses: Bus[] = [];
const workers: WorkerBin[] = [];

beforeAll(async () => {
  cluster = await startNatsCluster({ size: 3 });
  ledger = await createLedger(inject('postgresUrl'));
}, 60_000);

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.stop('SIGKILL')));
  await Promise.all(buses.splice(0).map((bus) => bus.close()));
  await cluster?.stop();
  await ledger?.drop();
});

function clusterBus(options: Omit<Parameters<typeof natsBus>[0], 'servers'> = {}): Bus {
  const bus = natsBus({ servers: cluster.urls, onError: () => undefined, ...options });
  buses.push(bus);
  return bus;
}

/** `interlude-worker` started the documented way, given every node of the cluster. */
function clusterWorker(): WorkerBin {
  const worker = startWorkerBin('support/worker-bin-agents.ts', {
    NATS_URL: cluster.urls.join(','),
    INTERLUDE_QUEUE: 'cluster_ops',
    POSTGRES_URL: inject('postgresUrl'),
    LEDGER_SCHEMA: ledger.schema,
  });
  workers.push(worker);
  return worker;
}

/** Each stream's replicas, and the node leading it, as the cluster reports them. */
async function streamPlacement(): Promise<Map<string, { replicas: number; leader: string | undefined }>> {
  const connection = await connect({ servers: cluster.urls });
  try {
    const manager = await jetstreamManager(connection);
    const placement = new Map<string, { replicas: number; leader: string | undefined }>();
    for (const stream of ALL_STREAMS) {
      const info = await manager.streams.info(stream);
      placement.set(stream, { replicas: info.config.num_replicas, leader: info.cluster?.leader });
    }
    return placement;
  } finally {
    await connection.close();
  }
}

describe('natsBus on a 3-node cluster: replicas, visible outages', () => {
  it('given the three URLs and no replicas option, it creates every stream and the checkpoint bucket with 3 replicas', async () => {
    const bus = clusterBus();
    await bus.deploymentId?.();
    const placement = await streamPlacement();
    expect([...placement].map(([stream, { replicas }]) => [stream, replicas])).toEqual(
      ALL_STREAMS.map((stream) => [stream, 3]),
    );
    expect(await bus.health?.()).toEqual({ ok: true });
  });

  it('refuses streams set up otherwise, naming each difference, before any call goes through', async () => {
    const bus = clusterBus({ replicas: 1, eventMaxAgeMs: 60_000 });
    const refused = await bus.publish(sampleEvent('gen_mismatch', 0, 'started')).catch((error: unknown) => error);
    expect(StreamConfigError.isInstance(refused)).toBe(true);
    const error = refused as StreamConfigError;
    expect(error.code).toBe('stream_config_mismatch');
    const named = error.differences.map(({ stream, setting, stored, wanted }) => ({ stream, setting, stored, wanted }));
    expect(named).toContainEqual({ stream: EVENTS_STREAM, setting: 'num_replicas', stored: 3, wanted: 1 });
    expect(named).toContainEqual({ stream: CHECKPOINT_STREAM, setting: 'num_replicas', stored: 3, wanted: 1 });
    expect(named).toContainEqual(
      expect.objectContaining({ stream: EVENTS_STREAM, setting: 'max_age', wanted: 60_000 * 1_000_000 }),
    );
    expect(error.message).toContain('updateStreams');
    expect(await bus.health?.()).toEqual({ ok: false, reason: expect.stringContaining('stream_config_mismatch') });
    // Nothing was changed: the streams keep their 3 replicas.
    expect((await streamPlacement()).get(EVENTS_STREAM)?.replicas).toBe(3);
  });

  it('an interlude-worker started while a node is down becomes ready', async () => {
    const down = cluster.nodes[2];
    if (down === undefined) throw new Error('no third node');
    await down.kill();
    try {
      const worker = clusterWorker();
      const health = await worker.healthUrl();
      await worker.waitForLine(/^interlude-worker: ready: /, 60_000);
      expect(await probe(`${health}/readyz`)).toEqual({ status: 200, body: { status: 'ready' } });
      await worker.stop('SIGTERM');
    } finally {
      await down.restart();
      await cluster.ready();
    }
  }, 90_000);

  it("with 1 replica and its node down, callers get bus_unavailable within the bound, health() and a worker's /readyz say which stream, and both recover", async () => {
    // The streams again, at 1 replica each (placed by the cluster across its nodes).
    const connection = await connect({ servers: cluster.urls });
    try {
      const manager = await jetstreamManager(connection);
      for (const stream of ALL_STREAMS) await manager.streams.delete(stream);
    } finally {
      await connection.close();
    }
    const statuses: BusHealth[] = [];
    const bus = clusterBus({ replicas: 1, unavailableAfterMs: 2_000, onStatus: (status) => statuses.push(status) });
    await bus.deploymentId?.();
    const worker = clusterWorker();
    const readyz = `${await worker.healthUrl()}/readyz`;
    await worker.waitForLine(/^interlude-worker: ready: /, 60_000);
    const leader = (await streamPlacement()).get(EVENTS_STREAM)?.leader;
    const node = cluster.nodes.find(({ name }) => name === leader);
    if (node === undefined) throw new Error(`no node leads ${EVENTS_STREAM}`);
    await node.kill();
    try {
      const began = performance.now();
      const failed = await bus.publish(sampleEvent('gen_outage', 0, 'started')).catch((error: unknown) => error);
      const waitedMs = performance.now() - began;
      expect(BusUnavailableError.isInstance(failed)).toBe(true);
      expect((failed as BusUnavailableError).code).toBe('bus_unavailable');
      expect((failed as BusUnavailableError).operation).toBe('publish');
      const health = await bus.health?.();
      expect(health).toEqual({ ok: false, reason: expect.stringContaining(EVENTS_STREAM) });
      expect(statuses.at(-1)?.ok).toBe(false);
      // The worker, running no job, is told by its readiness probe: not ready, and why.
      await waitUntil(async () => (await probe(readyz)).status === 503, 'the worker to be not ready', {
        timeoutMs: 20_000,
        everyMs: 250,
      });
      expect((await probe(readyz)).body.reason).toContain(`NATS unavailable: ${EVENTS_STREAM}`);
      recordFigure('cluster_unavailable_bound', { boundMs: 2_000, waitedMs: Math.round(waitedMs), node: node.name });
    } finally {
      await node.restart();
    }
    await waitUntil(async () => (await bus.health?.())?.ok === true, 'the bus to be healthy again', {
      timeoutMs: 30_000,
      everyMs: 250,
    });
    expect(statuses.at(-1)).toEqual({ ok: true });
    await waitUntil(async () => (await probe(readyz)).status === 200, 'the worker to be ready again', {
      timeoutMs: 20_000,
      everyMs: 250,
    });
    await worker.stop('SIGTERM');
    await bus.publish(sampleEvent('gen_outage', 0, 'started'));
    expect((await bus.events('gen_outage')).map((event) => event.event)).toEqual(['started']);
  }, 90_000);
});
