import { setTimeout as sleep } from 'node:timers/promises';
import { natsBus } from '@interlude/bus';
import { uniqueId } from '@interlude/bus/testing';
import { createRuntime, ResumeError, type Runtime } from '@interlude/core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectContiguousLog } from '../support/expect-contiguous-log.js';
import { CANARY, type CrashPoint, defineReliabilityAgent } from '../support/reliability-agent.js';
import { recordFigure } from '../support/reliability-figures.js';
import { countByCall, createLedger, type Ledger, type SideEffectRow } from '../support/reliability-ledger.js';
import { startOperator } from '../support/reliability-operator.js';
import { superviseWorkers } from '../support/reliability-supervisor.js';
import { seededRandom, waitUntil } from '../support/reliability-wait.js';
import { startWireTap } from '../support/reliability-wire-tap.js';

const GENERATIONS = 100;
const CRASHES_PER_POINT = 5;
const RANDOM_KILLS = 4;
const POINTS: CrashPoint[] = ['before_tool', 'after_tool', 'before_ack'];
const seed = Number(process.env.INTERLUDE_RELIABILITY_SEED ?? Math.floor(Math.random() * 2 ** 31));

let ledger: Ledger & { drop(): Promise<void> };
let runtime: Runtime;
let supervisor: ReturnType<typeof superviseWorkers> | undefined;

beforeAll(async () => {
  ledger = await createLedger(inject('postgresUrl'));
  runtime = createRuntime({ bus: natsBus({ servers: inject('natsUrl'), name: 'reliability-crash-test' }) });
  defineReliabilityAgent(runtime, { ledger });
});

afterEach(async () => {
  await supervisor?.stop();
});

afterAll(async () => {
  await runtime?.close();
  await ledger?.drop();
});

/** Distinct tickets, chosen from the seed, each with the point where its worker is killed. */
function crashPlan(): Record<number, CrashPoint> {
  const random = seededRandom(seed);
  const tickets = Array.from({ length: GENERATIONS }, (_, ticket) => ticket).sort(() => random() - 0.5);
  const plan: Record<number, CrashPoint> = {};
  POINTS.forEach((point, pointIndex) => {
    for (let index = 0; index < CRASHES_PER_POINT; index += 1) {
      plan[tickets[pointIndex * CRASHES_PER_POINT + index] as number] = point;
    }
  });
  return plan;
}

/**
 * Starts 2 supervised workers, queues `GENERATIONS` background generations and has the operator
 * answer every question they ask (a background resume each time) until all have completed.
 * `whileRunning` runs beside. A killed worker cannot finish a call, so the operator may decide
 * about an unknown outcome at once.
 */
async function runThroughWorkers(env: Record<string, string>, maxRestarts: number, whileRunning?: () => Promise<void>) {
  const queue = uniqueId('reliability');
  const current = superviseWorkers({
    script: 'reliability-worker-process.ts',
    count: 2,
    maxRestarts,
    env: {
      NATS_URL: inject('natsUrl'),
      QUEUE: queue,
      POSTGRES_URL: inject('postgresUrl'),
      LEDGER_SCHEMA: ledger.schema,
      JOB_ACK_WAIT_MS: '1500',
      ...env,
    },
  });
  supervisor = current;
  await current.ready();

  const ours = new Set<string>();
  const operator = await startOperator({ runtime, ledger, queue, ours });
  const supervised = (condition: () => boolean) => {
    current.check();
    return condition();
  };
  const progress = () =>
    `${operator.paused.size} paused, ${operator.completed.size} completed, killed ${current.killed.length}, ${operator.failures.length} failed answers`;
  const started = performance.now();
  const beside = whileRunning?.();
  try {
    const generationIds: string[] = [];
    for (let ticketId = 0; ticketId < GENERATIONS; ticketId += 1) {
      const generationId = `gen_${uniqueId('w').replaceAll(/[^a-zA-Z0-9]/g, '')}`;
      ours.add(generationId);
      generationIds.push(generationId);
      await runtime.agents.get('support')?.generation('handle', { ticketId }).generateLater({ queue, generationId });
    }
    await waitUntil(() => supervised(() => operator.completed.size === GENERATIONS), 'every generation to complete', {
      timeoutMs: 150_000,
      progress,
    });
    await beside;
    expect(operator.failures).toEqual([]);
    expect(await runtime.bus.jobs.deadLetters(queue)).toEqual([]);
    return { generationIds, operator, seconds: Number(((performance.now() - started) / 1000).toFixed(1)) };
  } finally {
    await operator.stop();
    await current.stop();
  }
}

/**
 * Every log whole (`expectContiguousLog`), with each call's result logged once, and an extra
 * pause exactly where a call's outcome was unknown.
 */
async function expectWholeLogs(generationIds: readonly string[], questioned: ReadonlySet<string>): Promise<number> {
  let events = 0;
  for (const generationId of generationIds) {
    const log = await expectContiguousLog(runtime.bus, inject('natsUrl'), generationId);
    const names = log.map((event) => event.event);
    expect(names.filter((name) => name === 'completed')).toHaveLength(1);
    expect(
      names.filter((name) => name === 'input_requested'),
      generationId,
    ).toHaveLength(questioned.has(generationId) ? 2 : 1);
    const toolCalls = log.flatMap((event) => (event.event === 'tool_completed' ? [event.data.tool_call_id] : []));
    expect(toolCalls.sort()).toEqual(['call_lookup', 'call_refund']);
    events += log.length;
  }
  return events;
}

function rowsOf(rows: readonly SideEffectRow[], generationIds: readonly string[]): SideEffectRow[] {
  const ours = new Set(generationIds);
  return rows.filter((row) => ours.has(row.generation_id) || row.tool === 'LEAK');
}

/** Each tool's side effect exactly once per generation, across every process. */
async function expectEachSideEffectOnce(generationIds: readonly string[]): Promise<SideEffectRow[]> {
  const rows = rowsOf(await ledger.rows(), generationIds);
  expect(rows.filter((row) => row.tool === 'LEAK')).toEqual([]);
  const counts = countByCall(rows);
  for (const generationId of generationIds) {
    expect(counts.get(`${generationId}/call_lookup`), generationId).toBe(1);
    expect(counts.get(`${generationId}/call_refund`), generationId).toBe(1);
  }
  expect(rows).toHaveLength(2 * GENERATIONS);
  return rows;
}

describe('workers killed with SIGKILL mid-generation', () => {
  it(`${GENERATIONS} generations through 2 worker processes, killed before the tool, after it and before the ack: all complete, each side effect and event once`, async () => {
    const plan = crashPlan();
    const { generationIds, operator, seconds } = await runThroughWorkers(
      { CRASH_PLAN: JSON.stringify(plan) },
      Object.keys(plan).length + 4,
    );
    const crashes = supervisor?.crashes ?? [];

    // Every planned crash happened, once, at its point, and the worker was killed there.
    const expectedCrashes = Object.entries(plan).map(([ticket, point]) => `${point} ${ticket}`);
    expect(crashes.map(({ point, ticket }) => `${point} ${ticket}`).sort()).toEqual(expectedCrashes.sort());

    // A worker killed inside the refund (after its intent was stored) left its outcome unknown: its
    // job's next delivery took the run over and asked, and the operator, finding no refund, said
    // to run it. Killed after the refund's result was stored, or after the run finished, nothing
    // was asked: the result was reused, or the delivery found the run done.
    const killedInRefund = generationIds.filter((_, ticket) => plan[ticket] === 'before_tool');
    expect(operator.reruns.sort()).toEqual(killedInRefund.map((generationId) => `${generationId}/call_refund`).sort());
    expect(operator.declines).toEqual([]);

    const rows = await expectEachSideEffectOnce(generationIds);
    const events = await expectWholeLogs(generationIds, new Set(killedInRefund));
    recordFigure('worker_crashes', {
      generations: GENERATIONS,
      workers: 2,
      kills: crashes.length,
      byPoint: Object.fromEntries(
        POINTS.map((point) => [point, crashes.filter((crash) => crash.point === point).length]),
      ),
      outcomeUnknownQuestions: operator.reruns.length + operator.declines.length,
      sideEffects: rows.length,
      events,
      seconds,
      seed,
    });
  }, 240_000);

  it(`${GENERATIONS} generations through 2 busy workers killed at random moments: all complete, each side effect and event once`, async () => {
    const random = seededRandom(seed + 1);
    let killing = true;
    const killAtRandomMoments = async () => {
      for (let kill = 0; kill < RANDOM_KILLS && killing; kill += 1) {
        await sleep(400 + random() * 800);
        if (killing) supervisor?.killAtRandom(random);
      }
    };
    const { generationIds, operator, seconds } = await runThroughWorkers(
      { WORKER_CONCURRENCY: '2', MODEL_DELAY_MS: '5' },
      RANDOM_KILLS + 2,
      async () => {
        await killAtRandomMoments();
        killing = false;
      },
    );
    killing = false;
    expect(new Set(supervisor?.killed ?? []).size).toBeGreaterThan(0);

    // Nothing lost, nothing twice: a call a killed worker left mid-way became a question, which
    // the operator answered by what the ledger showed.
    const rows = await expectEachSideEffectOnce(generationIds);
    const questioned = new Set([...operator.reruns, ...operator.declines].map((call) => call.split('/')[0] as string));
    const events = await expectWholeLogs(generationIds, questioned);
    recordFigure('worker_random_kills', {
      generations: GENERATIONS,
      workers: 2,
      concurrency: 2,
      kills: supervisor?.killed.length ?? 0,
      outcomeUnknownQuestions: { rerun: operator.reruns.length, declined: operator.declines.length },
      sideEffects: rows.length,
      events,
      seconds,
    });
  }, 240_000);

  it('a generation a worker paused on a secret question: the answer is refused for the queue, resumed in-process, and never crosses NATS', async () => {
    const tap = await startWireTap(inject('natsUrl'));
    try {
      const queue = uniqueId('reliability');
      const current = superviseWorkers({
        script: 'reliability-worker-process.ts',
        count: 1,
        maxRestarts: 0,
        env: {
          NATS_URL: inject('natsUrl'),
          QUEUE: queue,
          POSTGRES_URL: inject('postgresUrl'),
          LEDGER_SCHEMA: ledger.schema,
        },
      });
      supervisor = current;
      await current.ready();
      const support = runtime.agents.get('support');
      const { generationId } =
        (await support?.generation('handle', { ticketId: 7, verify: true }).generateLater({ queue })) ?? {};
      if (generationId === undefined) throw new Error('no support agent');
      await waitUntil(async () => (await runtime.bus.checkpoints.load(generationId)) !== undefined, 'the pause', {
        timeoutMs: 20_000,
      });

      const refused = await runtime
        .answerLater(generationId, { call_refund: true, call_pin: CANARY }, { queue })
        .catch((error: unknown) => error);
      expect(ResumeError.isInstance(refused) && refused.code).toBe('secret_in_job');
      expect(String((refused as Error).message)).not.toContain(CANARY);
      const done = await runtime.answer(generationId, { call_refund: true, call_pin: CANARY });
      expect(done.status).toBe('completed');

      const rows = (await ledger.rows()).filter((row) => row.generation_id === generationId || row.tool === 'LEAK');
      expect(rows.map((row) => row.tool_call_id).sort()).toEqual(['call_lookup', 'call_pin', 'call_refund']);
      const log = JSON.stringify(await runtime.bus.events(generationId));
      expect(log).toContain('PIN [FILTERED]');
      expect(log).not.toContain(CANARY);
      await tap.flush();
      expect(tap.count).toBeGreaterThan(0);
      expect(tap.saw(CANARY)).toBe(false);
      expect(current.lines().join('\n')).not.toContain(CANARY);
    } finally {
      await tap.close();
    }
  }, 60_000);
});
