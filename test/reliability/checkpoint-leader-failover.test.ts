import { BusUnavailableError, natsBus, natsNames } from '@interlude/bus';
import { createRuntime, type Runtime } from '@interlude/core';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineNatsRefundAgent } from '../bench/nats-refund-agent.js';
import { type ClusterNode, type NatsCluster, startNatsCluster } from '../support/nats-cluster.js';
import { recordFigure } from '../support/reliability-figures.js';

const { checkpointStream: CHECKPOINT_STREAM } = natsNames();
const PAUSED = 120;
const LANES = 4;
/** Answers given before the kill, so it lands while answers are being given. */
const KILL_AFTER = 15;

let cluster: NatsCluster;
let runtime: Runtime;

beforeAll(async () => {
  cluster = await startNatsCluster({ size: 3 });
  await cluster.ready();
  runtime = createRuntime({ bus: natsBus({ servers: cluster.urls, replicas: 3, onError: () => undefined }) });
}, 60_000);

afterAll(async () => {
  await runtime?.close();
  await cluster?.stop();
});

/**
 * Kills the node leading `stream` and polls `$JS.API.STREAM.INFO` through a node left up until
 * the stream has a leader again: the server's own election, from the kill to the new leader.
 */
async function killLeaderOf(stream: string): Promise<{ killed: string; killedAt: number; electedAt: number }> {
  const leader = await cluster.leaderOf(stream);
  const survivor = cluster.nodes.find((node) => node !== leader) as ClusterNode;
  const connection = await connect({ servers: survivor.url });
  try {
    const manager = await jetstreamManager(connection, { timeout: 250 });
    const killedAt = performance.now();
    await leader.kill();
    for (;;) {
      const info = await manager.streams.info(stream).catch(() => undefined);
      const now = info?.cluster?.leader;
      if (now !== undefined && now !== leader.name)
        return { killed: leader.name, killedAt, electedAt: performance.now() };
    }
  } finally {
    await connection.close();
  }
}

describe('a 3-node cluster at 3 replicas, the checkpoint bucket leader SIGKILLed while answers are given', () => {
  it('refuses no answer while two of three nodes are up', async () => {
    const agent = defineNatsRefundAgent(runtime, () => undefined);
    const paused: string[] = [];
    for (let ticket = 0; ticket < PAUSED; ticket += 1) {
      paused.push((await agent.generation('handle', { ticketId: ticket }).generateNow()).generationId);
    }
    const refused: string[] = [];
    const answeredAt: number[] = [];
    let election: ReturnType<typeof killLeaderOf> | undefined;
    const lane = async () => {
      for (let generationId = paused.shift(); generationId !== undefined; generationId = paused.shift()) {
        try {
          const { jobId } = await runtime.answerLater(generationId, { call_refund: true });
          expect(jobId).toBeTypeOf('string');
          answeredAt.push(performance.now());
        } catch (error) {
          if (!BusUnavailableError.isInstance(error)) throw error;
          refused.push(`${generationId}: ${error.message}`);
        }
        if (answeredAt.length === KILL_AFTER) election ??= killLeaderOf(CHECKPOINT_STREAM);
      }
    };
    await Promise.all(Array.from({ length: LANES }, lane));
    const { killedAt, electedAt, killed } = await (election as NonNullable<typeof election>);

    expect(refused).toEqual([]);
    expect(answeredAt).toHaveLength(PAUSED);
    const after = [killedAt, ...answeredAt.filter((at) => at > killedAt)];
    const stallMs = Math.max(...after.slice(1).map((at, index) => at - (after[index] as number)));
    recordFigure('checkpoint_leader_kill', {
      nodes: 3,
      replicas: 3,
      answers: PAUSED,
      killed,
      electionMs: Math.round(electedAt - killedAt),
      stallMs: Math.round(stallMs),
      refused: refused.length,
    });
    await cluster.nodes.find((node) => node.name === killed)?.restart();
  }, 180_000);
});
