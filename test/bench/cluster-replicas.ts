import { BusUnavailableError, natsBus, natsNames } from '@interlude/bus';
import { createRuntime, type Runtime } from '@interlude/core';
import type { AgentBase } from '@interlude/core/internal';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { type NatsCluster, startNatsCluster } from '../support/nats-cluster.js';
import type { BenchConfig } from './bench-config.js';
import { defineNatsRefundAgent } from './nats-refund-agent.js';
import { now, round, summarize } from './statistics.js';

const names = natsNames();
const { allStreams: ALL_STREAMS, claimsStream: CLAIMS_STREAM } = names;
/** The streams a generation here writes or reads: its events, its claims, its checkpoint and its pending entry. */
const CYCLE_STREAMS = [names.eventsStream, names.claimsStream, names.checkpointStream, names.pendingStream];

export interface ReplicasVariantResult {
  replicas: number;
  generations: number;
  generationsPerSecond: number;
  /** A whole generation: start, pause, answer, done. */
  generationMs: { p50: number; p99: number };
}

export interface ClusterReplicasResult {
  nodes: number;
  concurrency: number;
  variants: ReplicasVariantResult[];
  /** 3 replicas under load while the node leading the claim stream is SIGKILLed. */
  leaderKill: {
    generations: number;
    killed: string;
    /** Every stream the killed node led, with the milliseconds from the kill to its new leader. */
    elections: Record<string, number>;
    /**
     * The server's own election: from the kill until `$JS.API.STREAM.INFO`, asked through a node
     * left up, names a new leader for the last of the streams a generation uses that the node led
     * (`killLeaderOf`; the claim stream always, others when the node led them too).
     */
    electionMs: number;
    /** The longest time no generation completed, from the kill on. */
    stallMs: number;
    /** What Interlude adds to the election: the stall less the election (negative when shorter). */
    addedMs: number;
    /** Generations whose calls gave up with `bus_unavailable` (past the 10 s bound). */
    unavailable: number;
  };
}

/**
 * Benchmark 5: a 3-node cluster on loopback, one process driving generations (start, pause,
 * `runtime.answer`, done) with the streams at 1 replica and at 3, alternated round by round (the
 * streams are deleted and made again between rounds, since both cannot exist at once); then, at
 * 3 replicas, the stall while the node leading `INTERLUDE_CLAIMS` is SIGKILLed mid-run. Each
 * refund must run once per generation, or the run is a wrong result.
 */
export async function runClusterReplicas(config: BenchConfig): Promise<ClusterReplicasResult> {
  const cluster = await startNatsCluster({ size: 3 });
  try {
    const totals = new Map<number, { generations: number; elapsedMs: number; latencies: number[] }>();
    for (let round = 0; round < config.clusterRounds; round += 1) {
      for (const replicas of [1, 3]) {
        await deleteStreams(cluster);
        const measured = await withDriver(cluster, replicas, config.clusterConcurrency, (drive) =>
          drive(config.clusterGenerations),
        );
        const total = totals.get(replicas) ?? { generations: 0, elapsedMs: 0, latencies: [] };
        total.generations += measured.latencies.length;
        total.elapsedMs += measured.elapsedMs;
        total.latencies.push(...measured.latencies);
        totals.set(replicas, total);
      }
    }
    const variants = [...totals].map(([replicas, total]) => {
      const summary = summarize(total.latencies);
      return {
        replicas,
        generations: total.generations,
        generationsPerSecond: round(total.generations / (total.elapsedMs / 1_000), 0),
        generationMs: { p50: round(summary.median), p99: round(summary.p99) },
      };
    });
    await deleteStreams(cluster);
    const leaderKill = await measureLeaderKill(cluster, config);
    return { nodes: 3, concurrency: config.clusterConcurrency, variants, leaderKill };
  } finally {
    await cluster.stop();
  }
}

type Drive = (
  generations: number,
  onProgress?: (completed: number) => Promise<void> | void,
) => Promise<{ latencies: number[]; completedAt: number[]; unavailable: number; elapsedMs: number }>;

/** A runtime on the cluster at `replicas`, the refund agent on it, and a driver of `concurrency` generations at once. */
async function withDriver<T>(
  cluster: NatsCluster,
  replicas: number,
  concurrency: number,
  use: (drive: Drive) => Promise<T>,
): Promise<T> {
  const runtime: Runtime = createRuntime({
    bus: natsBus({ servers: cluster.urls, replicas, onError: () => undefined }),
  });
  const refunds = new Map<string, number>();
  const agent: AgentBase = defineNatsRefundAgent(runtime, (tool, generationId) => {
    if (tool === 'issue_refund') refunds.set(generationId, (refunds.get(generationId) ?? 0) + 1);
  });
  const drive: Drive = async (generations, onProgress) => {
    const latencies: number[] = [];
    const completedAt: number[] = [];
    let unavailable = 0;
    let next = 0;
    const began = now();
    const lane = async () => {
      while (next < generations) {
        next += 1;
        const started = now();
        try {
          const paused = await agent.generation('handle', { ticketId: next }).generateNow();
          const done = await runtime.answer(paused.generationId, { call_refund: true });
          if (refunds.get(paused.generationId) !== 1 || done.text === undefined) {
            throw new Error(
              `generation ${paused.generationId} refunded ${refunds.get(paused.generationId) ?? 0} times`,
            );
          }
          latencies.push(now() - started);
          completedAt.push(now());
          await onProgress?.(completedAt.length);
        } catch (error) {
          if (!BusUnavailableError.isInstance(error)) throw error;
          unavailable += 1;
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, lane));
    return { latencies, completedAt, unavailable, elapsedMs: now() - began };
  };
  try {
    // One generation first, so the streams exist and the connection is warm before timing.
    await drive(1);
    return await use(drive);
  } finally {
    await runtime.close();
  }
}

async function measureLeaderKill(
  cluster: NatsCluster,
  config: BenchConfig,
): Promise<ClusterReplicasResult['leaderKill']> {
  return withDriver(cluster, 3, config.clusterConcurrency, async (drive) => {
    let election: ReturnType<NatsCluster['killLeaderOf']> | undefined;
    const killAt = Math.floor(config.clusterGenerations / 3);
    const measured = await drive(config.clusterGenerations, (completed) => {
      // Not awaited: the lane goes on driving while the node dies and the stream elects.
      if (completed === killAt) election ??= cluster.killLeaderOf(CLAIMS_STREAM, ALL_STREAMS);
    });
    if (election === undefined) throw new Error('the claim stream leader was never killed');
    const { killed, killedAt, elections } = await election;
    // Nothing completes until every stream a generation uses has a leader again.
    const electionMs = Math.max(...CYCLE_STREAMS.map((stream) => elections[stream] ?? 0));
    await cluster.nodes.find(({ name }) => name === killed)?.restart();
    const after = [killedAt, ...measured.completedAt.filter((at) => at > killedAt)];
    const gaps = after.slice(1).map((at, index) => at - (after[index] as number));
    const stallMs = Math.max(0, ...gaps);
    return {
      generations: measured.latencies.length,
      killed,
      elections,
      electionMs,
      stallMs: round(stallMs, 0),
      addedMs: round(stallMs - electionMs, 0),
      unavailable: measured.unavailable,
    };
  });
}

async function deleteStreams(cluster: NatsCluster): Promise<void> {
  const connection = await connect({ servers: cluster.urls });
  try {
    const manager = await jetstreamManager(connection);
    for (const stream of ALL_STREAMS) await manager.streams.delete(stream).catch(() => undefined);
  } finally {
    await connection.close();
  }
}
