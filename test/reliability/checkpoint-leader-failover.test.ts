import { BusUnavailableError, natsBus, natsNames } from '@interlude/bus';
import { createRuntime, type Runtime } from '@interlude/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineNatsRefundAgent } from '../bench/nats-refund-agent.js';
import { type NatsCluster, startNatsCluster } from '../support/nats-cluster.js';
import { recordFigure } from '../support/reliability-figures.js';

const { checkpointStream: CHECKPOINT_STREAM, jobsStream: JOBS_STREAM, allStreams: ALL_STREAMS } = natsNames();
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

describe('a 3-node cluster at 3 replicas, the checkpoint bucket leader SIGKILLed while answers are given', () => {
  it('refuses no answer while two of three nodes are up', async () => {
    const agent = defineNatsRefundAgent(runtime, () => undefined);
    const paused: string[] = [];
    for (let ticket = 0; ticket < PAUSED; ticket += 1) {
      paused.push((await agent.generation('handle', { ticketId: ticket }).generateNow()).generationId);
    }
    const refused: string[] = [];
    const answeredAt: number[] = [];
    let election: ReturnType<NatsCluster['killLeaderOf']> | undefined;
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
        if (answeredAt.length === KILL_AFTER) election ??= cluster.killLeaderOf(CHECKPOINT_STREAM, ALL_STREAMS);
      }
    };
    await Promise.all(Array.from({ length: LANES }, lane));
    const { killedAt, killed, elections } = await (election as NonNullable<typeof election>);

    expect(refused).toEqual([]);
    expect(answeredAt).toHaveLength(PAUSED);
    const after = [killedAt, ...answeredAt.filter((at) => at > killedAt)];
    const stallMs = Math.max(...after.slice(1).map((at, index) => at - (after[index] as number)));
    recordFigure('checkpoint_leader_kill', {
      nodes: 3,
      replicas: 3,
      answers: PAUSED,
      killed,
      elections,
      // An answer reads the checkpoint and queues a job: both streams need a leader (when it led the jobs too).
      electionMs: Math.max(elections[CHECKPOINT_STREAM] ?? 0, elections[JOBS_STREAM] ?? 0),
      stallMs: Math.round(stallMs),
      refused: refused.length,
    });
    await cluster.nodes.find((node) => node.name === killed)?.restart();
  }, 180_000);
});
