import { natsBus, natsNames } from '@interlude/bus';
import { createRuntime, defineAgent, InputRequest, ResumeError, type Runtime, tool } from '@interlude/core';
import { scriptedProvider } from '@interlude/core/testing';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { type NatsCluster, startNatsCluster } from '../support/nats-cluster.js';
import { defineReliabilityAgent } from '../support/reliability-agent.js';
import { expectEachSideEffectOnce, expectWholeLogs } from '../support/reliability-checks.js';
import { recordFigure } from '../support/reliability-figures.js';
import { startFleet } from '../support/reliability-fleet.js';
import { createLedger, type Ledger } from '../support/reliability-ledger.js';
import { readThroughElections, waitUntil } from '../support/reliability-wait.js';
import { soakSize } from '../support/soak.js';

const { claimsStream: CLAIMS_STREAM, jobsStream: JOBS_STREAM } = natsNames();

/** Pairs run ten at a time. */
const PAIRS = soakSize({ short: 80, long: 300 });
const GENERATIONS = soakSize({ short: 36, long: 60 });

let cluster: NatsCluster;
let ledger: Ledger & { drop(): Promise<void> };
const runtimes: Runtime[] = [];
let fleetStop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  cluster = await startNatsCluster({ size: 3 });
  ledger = await createLedger(inject('postgresUrl'));
}, 60_000);

afterEach(async () => {
  await fleetStop?.();
});

afterAll(async () => {
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.close()));
  await cluster?.stop();
  await ledger?.drop();
});

/** A runtime on the cluster, with every stream and the bucket at 3 replicas, through `servers`. */
function clusterRuntime(name: string, servers: string | string[]): Runtime {
  const runtime = createRuntime({ bus: natsBus({ servers, replicas: 3, name, onError: () => undefined }) });
  runtimes.push(runtime);
  return runtime;
}

/** A refund agent counting its refunds per generation, on one runtime (both sides define it alike). */
function refundAgent(runtime: Runtime, refunds: Map<string, number>) {
  const model = scriptedProvider();
  return defineAgent({
    name: 'support',
    runtime,
    provider: {
      ...model,
      call(request, options) {
        const answered = JSON.stringify(request.messages).includes('"tool_use_id":"call_refund"');
        model.push(
          answered
            ? { text: 'Refunded.' }
            : { toolCalls: [{ id: 'call_refund', name: 'issue_refund', arguments: { amount: 30 } }] },
        );
        return model.call(request, options);
      },
    },
    actions: {
      handle: () => ({
        message: 'Refund order 42',
        tools: [
          tool({
            name: 'issue_refund',
            description: 'Refund',
            input: z.object({ amount: z.number() }),
            run: ({ amount }, context) => {
              if (context.answer === undefined) return InputRequest.confirm(`Refund $${amount}?`);
              refunds.set(context.generationId, (refunds.get(context.generationId) ?? 0) + 1);
              return { refunded: amount };
            },
          }),
        ],
      }),
    },
  });
}

describe('a 3-node nats-server cluster on loopback, streams and bucket at 3 replicas', () => {
  it(`${PAIRS} pairs of concurrent resumes of one checkpoint, through two nodes: one winner each, every time`, async () => {
    const refunds = new Map<string, number>();
    const left = refundAgent(clusterRuntime('cluster-left', cluster.nodes[0]?.url ?? ''), refunds);
    const right = refundAgent(clusterRuntime('cluster-right', cluster.nodes[1]?.url ?? ''), refunds);
    const outcome = (promise: Promise<unknown>) =>
      promise.then(
        () => 'won',
        (error: unknown) => (ResumeError.isInstance(error) ? error.code : String(error)),
      );
    const pair = async () => {
      const paused = await left.handle().generateNow();
      // A random head start of 0–3 ms per side, so neither node's client is always first.
      const resume = (agent: typeof left) =>
        outcome(
          new Promise((resolve) => setTimeout(resolve, Math.random() * 3)).then(() =>
            agent.handle().resumeNow({ checkpoint: paused.checkpoint, answers: { call_refund: true } }),
          ),
        );
      return { generationId: paused.generationId, results: await Promise.all([resume(left), resume(right)]) };
    };
    const pairs: Awaited<ReturnType<typeof pair>>[] = [];
    const started = performance.now();
    for (let batch = 0; batch < PAIRS / 10; batch += 1)
      pairs.push(...(await Promise.all(Array.from({ length: 10 }, pair))));
    const seconds = (performance.now() - started) / 1000;

    for (const { generationId, results } of pairs) {
      expect([...results].sort(), generationId).toEqual(['already_resumed', 'won']);
      expect(refunds.get(generationId), generationId).toBe(1);
    }
    const leftWins = pairs.filter(({ results }) => results[0] === 'won').length;
    expect(leftWins).toBeGreaterThan(0);
    expect(leftWins).toBeLessThan(PAIRS);
    recordFigure('cluster_double_resumes', {
      pairs: PAIRS,
      nodes: 3,
      replicas: 3,
      singleWinners: pairs.length,
      leftWins,
      seconds: Number(seconds.toFixed(1)),
    });
  }, 300_000);

  it(`${GENERATIONS} generations through 2 worker processes while the leader of the claim stream is SIGKILLed: 0 lost, 0 doubled, 0 stuck`, async () => {
    const runtime = clusterRuntime('cluster-load', cluster.urls);
    defineReliabilityAgent(runtime, { ledger, modelDelayMs: 5 });
    const fleet = await startFleet({
      runtime,
      ledger,
      natsUrl: cluster.urls,
      postgresUrl: inject('postgresUrl'),
      count: 2,
      ackWaitMs: 3_000,
      generations: GENERATIONS,
      env: { REPLICAS: '3', WORKER_CONCURRENCY: '4', MODEL_DELAY_MS: '5' },
    });
    fleetStop = fleet.stop;
    const { operator, generationIds, queue } = fleet;
    let killed = '';
    let inFlightAtKill = 0;
    try {
      await fleet.enqueueAll();
      await waitUntil(() => operator.completed.size >= GENERATIONS / 3, 'a third to complete', { timeoutMs: 90_000 });
      const leader = await cluster.leaderOf(CLAIMS_STREAM);
      inFlightAtKill = GENERATIONS - operator.completed.size;
      killed = leader.name;
      await leader.kill();
      await waitUntil(() => operator.completed.size === GENERATIONS, 'every generation to complete', {
        timeoutMs: 180_000,
        progress: () => `${operator.completed.size} completed; ${operator.failures.join('; ')}`,
      });
      // (A node may take a moment to answer while the streams it led elect new leaders: asked again.)
      await waitUntil(async () => (await jobsLeft(cluster).catch(() => -1)) === 0, 'the job stream to empty', {
        timeoutMs: 60_000,
      });
      await leader.restart();
    } finally {
      await fleet.stop();
    }
    expect(inFlightAtKill).toBeGreaterThan(0);
    expect(operator.failures).toEqual([]);
    // The node that came back rejoins; while it does, streams may elect leaders again (health()
    // says so), and a read meanwhile gives up with bus_unavailable: read as a user would, again.
    await waitUntil(async () => (await runtime.bus.health?.())?.ok === true, 'the bus to be healthy again', {
      timeoutMs: 60_000,
      everyMs: 500,
    });
    expect(await readThroughElections(() => runtime.bus.jobs.deadLetters(queue))).toEqual([]);
    await expectEachSideEffectOnce(ledger, generationIds);
    const events = await readThroughElections(() => expectWholeLogs(runtime.bus, cluster.urls, generationIds));
    recordFigure('cluster_leader_kill', {
      generations: GENERATIONS,
      nodes: 3,
      replicas: 3,
      killed,
      inFlightAtKill,
      outcomeUnknownQuestions: operator.reruns.length + operator.declines.length,
      events,
    });
  }, 400_000);
});

/** Messages the replicated job stream still holds, asked of whichever node answers. */
async function jobsLeft(on: NatsCluster): Promise<number> {
  const connection = await connect({ servers: on.urls });
  try {
    return (await (await jetstreamManager(connection)).streams.info(JOBS_STREAM)).state.messages;
  } finally {
    await connection.close();
  }
}
