import { natsBus } from '@interlude/bus';
import { uniqueId } from '@interlude/bus/testing';
import { createRuntime, type Runtime } from '@interlude/core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { rawStoredEventIds } from '../support/bus-raw-log.js';
import { type CrashPoint, defineReliabilityAgent } from '../support/reliability-agent.js';
import { recordFigure } from '../support/reliability-figures.js';
import { countByCall, createLedger, type Ledger } from '../support/reliability-ledger.js';
import { superviseWorkers } from '../support/reliability-supervisor.js';
import { seededRandom, waitUntil } from '../support/reliability-wait.js';

const GENERATIONS = 100;
const CRASHES_PER_POINT = 5;
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

afterAll(async () => {
  await supervisor?.stop();
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

describe('workers killed with SIGKILL mid-generation', () => {
  it(`${GENERATIONS} generations paused and resumed through 2 worker processes, killed before the tool, after it and before the ack: all complete, each side effect and event once`, async () => {
    const queue = uniqueId('reliability');
    const plan = crashPlan();
    supervisor = superviseWorkers({
      script: 'reliability-worker-process.ts',
      count: 2,
      maxRestarts: Object.keys(plan).length + 4,
      env: {
        NATS_URL: inject('natsUrl'),
        QUEUE: queue,
        POSTGRES_URL: inject('postgresUrl'),
        LEDGER_SCHEMA: ledger.schema,
        JOB_ACK_WAIT_MS: '1500',
        CRASH_PLAN: JSON.stringify(plan),
      },
    });
    await supervisor.ready();

    const paused = new Set<string>();
    const completed = new Set<string>();
    const ours = new Set<string>();
    const subscription = await runtime.bus.subscribe({ event: ['input_requested', 'completed'] }, (event) => {
      if (!ours.has(event.generation_id)) return;
      (event.event === 'completed' ? completed : paused).add(event.generation_id);
    });
    const supervised = (condition: () => boolean) => {
      supervisor?.check();
      return condition();
    };
    const started = performance.now();
    const generationIds: string[] = [];
    for (let ticketId = 0; ticketId < GENERATIONS; ticketId += 1) {
      const generationId = `gen_${uniqueId('w').replaceAll(/[^a-zA-Z0-9]/g, '')}`;
      ours.add(generationId);
      generationIds.push(generationId);
      await runtime.agents.get('support')?.generation('handle', { ticketId }).generateLater({ queue, generationId });
    }
    const progress = () =>
      `${paused.size} paused, ${completed.size} completed, crashes ${JSON.stringify(supervisor?.crashes)}`;
    await waitUntil(() => supervised(() => paused.size === GENERATIONS), 'every generation to pause', {
      timeoutMs: 60_000,
      progress,
    });
    for (const generationId of generationIds) {
      await runtime.answerLater(generationId, { call_refund: true }, { queue });
    }
    await waitUntil(() => supervised(() => completed.size === GENERATIONS), 'every generation to complete', {
      timeoutMs: 90_000,
      progress,
    });
    const seconds = (performance.now() - started) / 1000;
    await subscription.unsubscribe();
    await supervisor.stop();

    // Every planned crash happened, once, at its point, and the worker was killed there.
    const expectedCrashes = Object.entries(plan).map(([ticket, point]) => `${point} ${ticket}`);
    expect(supervisor.crashes.map(({ point, ticket }) => `${point} ${ticket}`).sort()).toEqual(expectedCrashes.sort());

    // Each tool's side effect ran exactly once per generation, across every process.
    const rows = await ledger.rows();
    expect(rows.filter((row) => row.tool === 'LEAK')).toEqual([]);
    const counts = countByCall(rows);
    for (const generationId of generationIds) {
      expect(counts.get(`${generationId}/call_lookup`), generationId).toBe(1);
      expect(counts.get(`${generationId}/call_refund`), generationId).toBe(1);
    }
    expect(rows).toHaveLength(2 * GENERATIONS);

    // Every event is stored exactly once, and each log tells the whole story in order.
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
    recordFigure('worker_crashes', {
      generations: GENERATIONS,
      workers: 2,
      kills: supervisor.crashes.length,
      byPoint: Object.fromEntries(
        POINTS.map((point) => [point, supervisor?.crashes.filter((crash) => crash.point === point).length]),
      ),
      sideEffects: rows.length,
      events,
      seconds: Number(seconds.toFixed(1)),
      seed,
    });
  }, 180_000);
});
