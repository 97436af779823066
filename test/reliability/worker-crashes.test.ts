import { setTimeout as sleep } from 'node:timers/promises';
import { natsBus } from '@interlude/bus';
import { uniqueId } from '@interlude/bus/testing';
import { createRuntime, ResumeError, type Runtime } from '@interlude/core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { CANARY, type CrashPoint, defineReliabilityAgent } from '../support/reliability-agent.js';
import { expectEachSideEffectOnce, expectWholeLogs } from '../support/reliability-checks.js';
import { recordFigure } from '../support/reliability-figures.js';
import { startFleet } from '../support/reliability-fleet.js';
import { createLedger, type Ledger } from '../support/reliability-ledger.js';
import { superviseWorkers } from '../support/reliability-supervisor.js';
import { seededRandom, waitUntil } from '../support/reliability-wait.js';
import { startWireTap } from '../support/reliability-wire-tap.js';
import { soakSize } from '../support/soak.js';

const GENERATIONS = soakSize({ short: 50, long: 100 });
const CRASHES_PER_POINT = soakSize({ short: 2, long: 5 });
const RANDOM_KILLS = soakSize({ short: 3, long: 4 });
const POINTS: CrashPoint[] = ['before_tool', 'after_tool', 'before_ack'];
const seed = Number(process.env['INTERLUDE_RELIABILITY_SEED'] ?? Math.floor(Math.random() * 2 ** 31));

let ledger: Ledger & { drop(): Promise<void> };
let runtime: Runtime;
let supervisor: ReturnType<typeof superviseWorkers> | undefined;
let fleetStop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ledger = await createLedger(inject('postgresUrl'));
  runtime = createRuntime({ bus: natsBus({ servers: inject('natsUrl'), name: 'reliability-crash-test' }) });
  defineReliabilityAgent(runtime, { ledger });
});

afterEach(async () => {
  await fleetStop?.();
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
  const fleet = await startFleet({
    runtime,
    ledger,
    natsUrl: inject('natsUrl'),
    postgresUrl: inject('postgresUrl'),
    count: 2,
    maxRestarts,
    ackWaitMs: 1_500,
    generations: GENERATIONS,
    env,
    mayDecide: () => true,
  });
  fleetStop = fleet.stop;
  const { operator, generationIds, queue, supervisor: current } = fleet;
  supervisor = current;
  const supervised = (condition: () => boolean) => {
    current.check();
    return condition();
  };
  const progress = () =>
    `${operator.paused.size} paused, ${operator.completed.size} completed, killed ${current.killed.length}, ${operator.failures.length} failed answers`;
  const started = performance.now();
  const beside = whileRunning?.();
  try {
    await fleet.enqueueAll();
    await waitUntil(() => supervised(() => operator.completed.size === GENERATIONS), 'every generation to complete', {
      timeoutMs: 150_000,
      progress,
    });
    await beside;
    expect(operator.failures).toEqual([]);
    expect(await runtime.bus.jobs.deadLetters(queue)).toEqual([]);
    return { generationIds, operator, seconds: Number(((performance.now() - started) / 1000).toFixed(1)) };
  } finally {
    await fleet.stop();
  }
}

/**
 * Every log whole, with each call's result logged once, the refund's own question once, and a
 * question about an unknown outcome exactly in the generations where the operator met one.
 */
async function expectQuestionsWhereAsked(generationIds: readonly string[], questioned: ReadonlySet<string>) {
  const events = await expectWholeLogs(runtime.bus, inject('natsUrl'), generationIds);
  for (const generationId of generationIds) {
    const log = await runtime.bus.events(generationId);
    expect(log.filter((event) => event.event === 'completed')).toHaveLength(1);
    const asked = log.flatMap((event) => (event.event === 'input_requested' ? event.data.input_requests : []));
    const unknown = asked.filter((request) => request.metadata?.['outcome_unknown'] === true);
    // The refund's own confirm, asked once (a question may also hold outcome-unknown ones).
    expect(
      asked.filter(
        (request) => request.tool_call_id === 'call_refund' && request.metadata?.['outcome_unknown'] !== true,
      ),
      generationId,
    ).toHaveLength(1);
    expect(unknown.length > 0, generationId).toBe(questioned.has(generationId));
    const toolCalls = log.flatMap((event) => (event.event === 'tool_completed' ? [event.data.tool_call_id] : []));
    expect(toolCalls.sort()).toEqual(['call_lookup', 'call_refund']);
  }
  return events;
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

    const rows = await expectEachSideEffectOnce(ledger, generationIds);
    const events = await expectQuestionsWhereAsked(generationIds, new Set(killedInRefund));
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
    const rows = await expectEachSideEffectOnce(ledger, generationIds);
    const questioned = new Set([...operator.reruns, ...operator.declines].map((call) => call.split('/')[0] as string));
    const events = await expectQuestionsWhereAsked(generationIds, questioned);
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
