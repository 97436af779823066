import { setTimeout as sleep } from 'node:timers/promises';
import { natsBus } from '@interlude/bus';
import { uniqueId } from '@interlude/bus/testing';
import { createRuntime, ResumeError, type Runtime } from '@interlude/core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { rawStoredEventIds } from '../support/bus-raw-log.js';
import { CANARY, type CrashPoint, defineReliabilityAgent } from '../support/reliability-agent.js';
import { recordFigure } from '../support/reliability-figures.js';
import { countByCall, createLedger, type Ledger, type SideEffectRow } from '../support/reliability-ledger.js';
import { superviseWorkers } from '../support/reliability-supervisor.js';
import { seededRandom, waitUntil } from '../support/reliability-wait.js';
import { startWireTap } from '../support/reliability-wire-tap.js';

const GENERATIONS = 100;
const CRASHES_PER_POINT = 5;
const RANDOM_KILLS = 4;
const POINTS: CrashPoint[] = ['before_tool', 'after_tool', 'before_ack'];
const seed = Number(process.env['INTERLUDE_RELIABILITY_SEED'] ?? Math.floor(Math.random() * 2 ** 31));

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
 * Starts 2 supervised workers, queues `GENERATIONS` background generations, answers each once it
 * pauses (a background resume too) and waits until all have completed. `whileRunning` runs beside.
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

  const paused = new Set<string>();
  const completed = new Set<string>();
  const ours = new Set<string>();
  const subscription = await runtime.bus.subscribe({ event: ['input_requested', 'completed'] }, (event) => {
    if (!ours.has(event.generation_id)) return;
    (event.event === 'completed' ? completed : paused).add(event.generation_id);
  });
  const supervised = (condition: () => boolean) => {
    current.check();
    return condition();
  };
  const progress = () => `${paused.size} paused, ${completed.size} completed, killed ${current.killed.length}`;
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
    await waitUntil(() => supervised(() => paused.size === GENERATIONS), 'every generation to pause', {
      timeoutMs: 60_000,
      progress,
    });
    for (const generationId of generationIds) await runtime.answerLater(generationId, { call_refund: true }, { queue });
    await waitUntil(() => supervised(() => completed.size === GENERATIONS), 'every generation to complete', {
      timeoutMs: 90_000,
      progress,
    });
    await beside;
    return { generationIds, seconds: Number(((performance.now() - started) / 1000).toFixed(1)) };
  } finally {
    await subscription.unsubscribe();
    await current.stop();
  }
}

/** Every event stored exactly once, each log from `started` to one `completed`, each call's result logged once. */
async function expectWholeLogs(generationIds: readonly string[]): Promise<number> {
  let events = 0;
  for (const generationId of generationIds) {
    const log = await runtime.bus.events(generationId);
    const raw = await rawStoredEventIds(inject('natsUrl'), generationId);
    expect(raw).toEqual(log.map((event) => event.id));
    expect(new Set(raw).size).toBe(raw.length);
    const names = log.map((event) => event.event);
    expect(names[0]).toBe('started');
    expect(names.at(-1)).toBe('completed');
    expect(names.filter((name) => name === 'completed')).toHaveLength(1);
    expect(names.filter((name) => name === 'input_requested')).toHaveLength(1);
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

describe('workers killed with SIGKILL mid-generation', () => {
  it(`${GENERATIONS} generations through 2 worker processes, killed before the tool, after it and before the ack: all complete, each side effect and event once`, async () => {
    const plan = crashPlan();
    const { generationIds, seconds } = await runThroughWorkers(
      { CRASH_PLAN: JSON.stringify(plan) },
      Object.keys(plan).length + 4,
    );
    const crashes = supervisor?.crashes ?? [];

    // Every planned crash happened, once, at its point, and the worker was killed there.
    const expectedCrashes = Object.entries(plan).map(([ticket, point]) => `${point} ${ticket}`);
    expect(crashes.map(({ point, ticket }) => `${point} ${ticket}`).sort()).toEqual(expectedCrashes.sort());

    // Each tool's side effect ran exactly once per generation, across every process.
    const rows = rowsOf(await ledger.rows(), generationIds);
    expect(rows.filter((row) => row.tool === 'LEAK')).toEqual([]);
    const counts = countByCall(rows);
    for (const generationId of generationIds) {
      expect(counts.get(`${generationId}/call_lookup`), generationId).toBe(1);
      expect(counts.get(`${generationId}/call_refund`), generationId).toBe(1);
    }
    expect(rows).toHaveLength(2 * GENERATIONS);
    const events = await expectWholeLogs(generationIds);
    recordFigure('worker_crashes', {
      generations: GENERATIONS,
      workers: 2,
      kills: crashes.length,
      byPoint: Object.fromEntries(
        POINTS.map((point) => [point, crashes.filter((crash) => crash.point === point).length]),
      ),
      sideEffects: rows.length,
      events,
      seconds,
      seed,
    });
  }, 180_000);

  it(`${GENERATIONS} generations through 2 busy workers killed at random moments: all complete, each event once; a call runs again only after the process running it was killed`, async () => {
    const random = seededRandom(seed + 1);
    let killing = true;
    const killAtRandomMoments = async () => {
      for (let kill = 0; kill < RANDOM_KILLS && killing; kill += 1) {
        await sleep(400 + random() * 800);
        if (killing) supervisor?.killAtRandom(random);
      }
    };
    const { generationIds, seconds } = await runThroughWorkers(
      { WORKER_CONCURRENCY: '2', MODEL_DELAY_MS: '5' },
      RANDOM_KILLS + 2,
      async () => {
        await killAtRandomMoments();
        killing = false;
      },
    );
    killing = false;
    const killed = new Set(supervisor?.killed ?? []);
    expect(killed.size).toBeGreaterThan(0);

    // Nothing lost: every call's side effect happened. A call that ran twice was first run by a
    // process that was killed before its result was logged (at-least-once in that window only).
    const rows = rowsOf(await ledger.rows(), generationIds);
    expect(rows.filter((row) => row.tool === 'LEAK')).toEqual([]);
    let reruns = 0;
    for (const generationId of generationIds) {
      for (const call of ['call_lookup', 'call_refund']) {
        const runs = rows.filter((row) => row.generation_id === generationId && row.tool_call_id === call);
        expect(runs.length, `${generationId}/${call}`).toBeGreaterThanOrEqual(1);
        for (const earlier of runs.slice(0, -1)) expect(killed.has(earlier.pid), `${generationId}/${call}`).toBe(true);
        reruns += runs.length - 1;
      }
    }
    const events = await expectWholeLogs(generationIds);
    recordFigure('worker_random_kills', {
      generations: GENERATIONS,
      workers: 2,
      concurrency: 2,
      kills: killed.size,
      rerunsAfterKill: reruns,
      events,
      seconds,
    });
  }, 180_000);

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
