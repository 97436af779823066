import { setTimeout as sleep } from 'node:timers/promises';
import { createWorker, natsBus, type Worker } from '@interlude/bus';
import { type CuttableProxy, startCuttableProxy } from '@interlude/bus/testing';
import { createRuntime, type Runtime } from '@interlude/core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectContiguousLog } from '../support/expect-contiguous-log.js';
import { CANARY, defineReliabilityAgent } from '../support/reliability-agent.js';
import { recordFigure } from '../support/reliability-figures.js';
import { countByCall, createLedger, type Ledger } from '../support/reliability-ledger.js';
import { seededRandom, waitUntil } from '../support/reliability-wait.js';
import { soakSize } from '../support/soak.js';

const GENERATIONS = soakSize({ short: 160, long: 400 });
const IN_FLIGHT = 24;
const CUTS = soakSize({ short: 6, long: 12 });
const QUEUE = 'cuts';
const seed = Number(process.env['INTERLUDE_RELIABILITY_SEED'] ?? Math.floor(Math.random() * 2 ** 31));

let proxy: CuttableProxy;
let ledger: Ledger & { drop(): Promise<void> };
let runtime: Runtime;
let worker: Worker;
/** What the worker reported for each generation it ran (a redelivered job reports again). */
const workerOutcomes = new Map<string, string[]>();

beforeAll(async () => {
  proxy = await startCuttableProxy(inject('natsUrl'));
  ledger = await createLedger(inject('postgresUrl'));
  // A job the server delivers as the connection drops is lost in transit, and JetStream delivers
  // it again once its ack wait runs out: 3 s here rather than the default 30 s.
  const bus = natsBus({ servers: proxy.url, name: 'reliability-cuts', jobAckWaitMs: 3_000, onError: () => undefined });
  runtime = createRuntime({ bus });
  const support = defineReliabilityAgent(runtime, { ledger, modelDelayMs: 5 });
  worker = createWorker({
    runtime,
    agents: [support],
    queue: QUEUE,
    concurrency: 8,
    onJob: (job, outcome) => {
      workerOutcomes.set(job.generation_id, [...(workerOutcomes.get(job.generation_id) ?? []), outcome.status]);
    },
  });
});

afterAll(async () => {
  await worker?.stop();
  await runtime?.close();
  await proxy?.close();
  await ledger?.drop();
});

describe('the connection to a running nats-server cut again and again during a run', () => {
  it(`${GENERATIONS} generations, half resumed in-process with a secret answer and half by a worker, through ${CUTS} cuts: all complete, every log contiguous, each side effect once`, async () => {
    // Unlike a server restart, the server keeps everything across a cut: writes that landed but
    // whose replies were lost, pulls still waiting for the old connection, a claim already made.
    console.log(`[reliability] connection cuts with seed ${seed}`);
    const support = runtime.agents.get('support');
    if (support === undefined) throw new Error('no support agent');
    const results: { generationId: string; status: string }[] = [];
    let next = 0;
    const runOne = async (ticketId: number) => {
      const viaWorker = ticketId % 2 === 1; // a queued resume cannot carry a secret answer
      const paused = await support.generation('handle', { ticketId, verify: !viaWorker }).generateNow();
      const { generationId } = paused;
      if (!viaWorker) {
        const done = await runtime.answer(generationId, { call_refund: true, call_pin: CANARY });
        results.push({ generationId, status: done.status });
        return;
      }
      await runtime.answerLater(generationId, { call_refund: true }, { queue: QUEUE });
      await waitUntil(() => workerOutcomes.has(generationId), `the worker's run of ${generationId}`, {
        timeoutMs: 60_000,
      });
      results.push({ generationId, status: workerOutcomes.get(generationId)?.[0] as string });
    };
    const lane = async () => {
      while (next < GENERATIONS) await runOne(next++);
    };

    // Each cut comes at a seeded random moment after the next share of the run has completed,
    // so all of them fall inside the run however fast the machine is.
    const random = seededRandom(seed);
    const started = performance.now();
    const running = Promise.all(Array.from({ length: IN_FLIGHT }, lane));
    let cuts = 0;
    let inFlightAtCuts = 0;
    for (let cut = 1; cut <= CUTS; cut += 1) {
      const threshold = Math.floor((GENERATIONS * cut) / (CUTS + 1));
      await waitUntil(() => results.length >= threshold, `${threshold} completed generations`, {
        timeoutMs: 60_000,
        everyMs: 5,
      });
      await sleep(random() * 30);
      inFlightAtCuts += next - results.length;
      proxy.cut();
      cuts += 1;
    }
    await running;
    const seconds = (performance.now() - started) / 1000;

    expect(inFlightAtCuts, 'generations were under way at the cuts').toBeGreaterThan(CUTS);
    expect(results).toHaveLength(GENERATIONS);
    expect(results.filter((result) => result.status !== 'completed')).toEqual([]);

    const rows = await ledger.rows();
    expect(rows.filter((row) => row.tool === 'LEAK')).toEqual([]);
    const counts = countByCall(rows);
    for (const [index, { generationId }] of results.entries()) {
      const calls = ['call_lookup', 'call_refund', ...(workerOutcomes.has(generationId) ? [] : ['call_pin'])];
      for (const call of calls)
        expect(counts.get(`${generationId}/${call}`), `${call} of result ${index} (seed ${seed})`).toBe(1);
    }

    // Stored once each, in the order each run published them, from `started` to `completed`.
    let events = 0;
    for (const { generationId } of results) {
      const log = await expectContiguousLog(runtime.bus, inject('natsUrl'), generationId);
      expect(JSON.stringify(log)).not.toContain(CANARY);
      events += log.length;
    }
    recordFigure('connection_cuts', {
      generations: GENERATIONS,
      cuts,
      inFlightAtCuts,
      redeliveredJobs: [...workerOutcomes.values()].filter((outcomes) => outcomes.length > 1).length,
      events,
      seconds: Number(seconds.toFixed(1)),
      seed,
    });
  }, 180_000);
});
