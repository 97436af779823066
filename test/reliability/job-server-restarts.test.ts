import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { natsBus, natsNames } from '@interlude/bus';
import { createRuntime, type Runtime } from '@interlude/core';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../support/bus-raw-log.js';
import { type StartedNatsServer, startNatsServer } from '../support/global-setup.js';
import { killNatsServer } from '../support/kill-nats-server.js';
import { defineReliabilityAgent } from '../support/reliability-agent.js';
import { expectEachSideEffectOnce, expectWholeLogs } from '../support/reliability-checks.js';
import { recordFigure } from '../support/reliability-figures.js';
import { startFleet } from '../support/reliability-fleet.js';
import { createLedger, type Ledger } from '../support/reliability-ledger.js';
import { waitUntil } from '../support/reliability-wait.js';

const { jobsStream: JOBS_STREAM } = natsNames();

const GENERATIONS = 80;
/** Completed generations at which the server holding the jobs is SIGKILLed; it is back after `DOWN_MS`. */
const KILL_AT = [25, 55];
const DOWN_MS = 500;

let storeDirectory: string;
let port: number;
let server: StartedNatsServer;
/** Every server this file started (each restart is a new process), all killed at the end. */
const startedServers: StartedNatsServer[] = [];
async function startServer(): Promise<StartedNatsServer> {
  const next = await startNatsServer(storeDirectory, port);
  startedServers.push(next);
  return next;
}
let ledger: Ledger & { drop(): Promise<void> };
let runtime: Runtime;
let fleetStop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  storeDirectory = await mkdtemp(join(tmpdir(), 'interlude-job-restarts-'));
  port = await freePort();
  server = await startServer();
  ledger = await createLedger(inject('postgresUrl'));
  runtime = createRuntime({
    bus: natsBus({
      servers: server.url,
      name: 'reliability-job-restarts',
      requestTimeoutMs: 1_000,
      onError: () => undefined,
    }),
  });
  defineReliabilityAgent(runtime, { ledger });
});

afterEach(async () => {
  await fleetStop?.();
});

afterAll(async () => {
  await runtime?.close();
  for (const each of startedServers) each.process.kill('SIGKILL');
  await ledger?.drop();
  if (storeDirectory !== undefined) await rm(storeDirectory, { recursive: true, force: true });
});

/** What the job stream and its consumers held when last asked, for the failure message. */
let lastJobState = '';

/** Messages the job stream still holds (every one of them is ours: the server is private). */
async function jobsLeft(): Promise<number> {
  const connection = await connect({ servers: server.url });
  try {
    const manager = await jetstreamManager(connection);
    const { state } = await manager.streams.info(JOBS_STREAM);
    if (state.messages > 0) {
      const consumers = [];
      for await (const consumer of manager.consumers.list(JOBS_STREAM)) {
        consumers.push(
          `${consumer.name}: delivered ${consumer.delivered.stream_seq}, ack floor ${consumer.ack_floor.stream_seq}, ` +
            `ack pending ${consumer.num_ack_pending}, redelivered ${consumer.num_redelivered}, pending ${consumer.num_pending}`,
        );
      }
      lastJobState = `${state.messages} left (seq ${state.first_seq}..${state.last_seq}); ${consumers.join('; ')}`;
    }
    return state.messages;
  } finally {
    await connection.close();
  }
}

describe('the nats-server holding the jobs SIGKILLed and restarted under load (replicas 1)', () => {
  it(`${GENERATIONS} generations through 3 worker processes, two server kills: 0 lost, 0 doubled, 0 job messages left behind`, async () => {
    const fleet = await startFleet({
      runtime,
      ledger,
      natsUrl: server.url,
      postgresUrl: inject('postgresUrl'),
      count: 3,
      ackWaitMs: 1_500,
      generations: GENERATIONS,
      env: { WORKER_CONCURRENCY: '4', MODEL_DELAY_MS: '5' },
    });
    fleetStop = fleet.stop;
    const { operator, generationIds, queue } = fleet;
    const inFlightAtKill: number[] = [];
    const started = performance.now();
    let seconds = 0;
    try {
      await fleet.enqueueAll();
      for (const threshold of KILL_AT) {
        await waitUntil(() => operator.completed.size >= threshold, `${threshold} completed`, { timeoutMs: 90_000 });
        inFlightAtKill.push(GENERATIONS - operator.completed.size);
        await killNatsServer(server);
        await sleep(DOWN_MS);
        server = await startServer();
      }
      await waitUntil(() => operator.completed.size === GENERATIONS, 'every generation to complete', {
        timeoutMs: 120_000,
        progress: () => `${operator.completed.size} completed; ${operator.failures.join('; ')}`,
      });
      // Nothing stays in the work queue: every delivery, duplicates after the restarts included, is acknowledged.
      await waitUntil(async () => (await jobsLeft()) === 0, 'the job stream to empty', {
        timeoutMs: 30_000,
        everyMs: 500,
        progress: () => lastJobState,
      });
      seconds = Number(((performance.now() - started) / 1000).toFixed(1));
    } finally {
      await fleet.stop();
    }

    expect(inFlightAtKill.every((count) => count > 0)).toBe(true);
    expect(operator.failures).toEqual([]);
    expect(await runtime.bus.jobs.deadLetters(queue)).toEqual([]);
    // 0 doubled: each side effect once, across processes and restarts.
    await expectEachSideEffectOnce(ledger, generationIds);
    const events = await expectWholeLogs(runtime.bus, server.url, generationIds);
    const jobLines = fleet.supervisor.lines().filter((line) => line.startsWith('job '));
    recordFigure('job_server_restarts', {
      generations: GENERATIONS,
      workers: 3,
      restarts: KILL_AT.length,
      inFlightAtKill,
      duplicatesAcknowledged: jobLines.filter((line) => line.startsWith('job duplicate ')).length,
      fencedRuns: jobLines.filter((line) => line.startsWith('job fenced ')).length,
      outcomeUnknownQuestions: operator.reruns.length + operator.declines.length,
      jobsLeft: await jobsLeft(),
      events,
      seconds,
    });
  }, 300_000);
});
