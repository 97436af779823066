import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { natsBus } from '@interlude/bus';
import { createRuntime, type Runtime } from '@interlude/core';
import { openTelemetry } from '@interlude/telemetry';
import { createInMemoryTracing } from '@interlude/telemetry/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../support/bus-raw-log.js';
import { expectContiguousLog } from '../support/expect-contiguous-log.js';
import { type StartedNatsServer, startNatsServer } from '../support/global-setup.js';
import { killNatsServer } from '../support/kill-nats-server.js';
import { CANARY, defineReliabilityAgent } from '../support/reliability-agent.js';
import { spanText } from '../support/reliability-canary.js';
import { recordFigure } from '../support/reliability-figures.js';
import { countByCall, createLedger, type Ledger } from '../support/reliability-ledger.js';
import { waitUntil } from '../support/reliability-wait.js';
import { startWireTap, type WireTap } from '../support/reliability-wire-tap.js';
import { soakSize } from '../support/soak.js';

const GENERATIONS = soakSize({ short: 150, long: 500 });
const IN_FLIGHT = 25;
/** Completed generations at which the server is killed (30 % and 66 % of the run); it comes back after `DOWN_MS`. */
const KILL_AT = [Math.floor(GENERATIONS * 0.3), Math.floor(GENERATIONS * 0.66)];
const DOWN_MS = 500;

let storeDirectory: string;
let port: number;
let server: StartedNatsServer;
let ledger: Ledger & { drop(): Promise<void> };
let runtime: Runtime;
let tap: WireTap;
const tracing = createInMemoryTracing();

beforeAll(async () => {
  storeDirectory = await mkdtemp(join(tmpdir(), 'interlude-restarts-'));
  port = await freePort();
  server = await startNatsServer(storeDirectory, port);
  ledger = await createLedger(inject('postgresUrl'));
  tap = await startWireTap(server.url);
  runtime = createRuntime({
    bus: natsBus({
      servers: server.url,
      name: 'reliability-restarts',
      requestTimeoutMs: 1_000,
      onError: () => undefined,
    }),
    telemetry: openTelemetry({ tracerProvider: tracing.tracerProvider }),
  });
  defineReliabilityAgent(runtime, { ledger, modelDelayMs: 5 });
});

afterAll(async () => {
  await runtime?.close();
  await tap?.close();
  server?.process.kill('SIGKILL');
  await ledger?.drop();
  await tracing.shutdown();
  if (storeDirectory !== undefined) await rm(storeDirectory, { recursive: true, force: true });
});

async function restartServer(): Promise<void> {
  await killNatsServer(server);
  await sleep(DOWN_MS);
  server = await startNatsServer(storeDirectory, port);
}

describe('a private nats-server killed and restarted during a run', () => {
  it(`${GENERATIONS} generations with a secret answer through two server restarts: all complete, every log contiguous, each event stored once`, async () => {
    const support = runtime.agents.get('support');
    if (support === undefined) throw new Error('no support agent');
    const results: { generationId: string; status: string }[] = [];
    let next = 0;
    const runOne = async (ticketId: number) => {
      const paused = await support.generation('handle', { ticketId, verify: true }).generateNow();
      const done = await runtime.answer(paused.generationId, { call_refund: true, call_pin: CANARY });
      results.push({ generationId: paused.generationId, status: done.status });
    };
    const lane = async () => {
      while (next < GENERATIONS) await runOne(next++);
    };
    const started = performance.now();
    const running = Promise.all(Array.from({ length: IN_FLIGHT }, lane));
    const inFlightAtKill: number[] = [];
    for (const threshold of KILL_AT) {
      await waitUntil(() => results.length >= threshold, `${threshold} completed generations`, { timeoutMs: 60_000 });
      inFlightAtKill.push(next - results.length);
      await restartServer();
    }
    await running;
    const seconds = (performance.now() - started) / 1000;

    // Generations were under way at each kill, and every one of them completed.
    expect(inFlightAtKill.every((count) => count > 0)).toBe(true);
    expect(results).toHaveLength(GENERATIONS);
    expect(results.filter((result) => result.status !== 'completed')).toEqual([]);

    // Each side effect ran once.
    const rows = await ledger.rows();
    expect(rows.filter((row) => row.tool === 'LEAK')).toEqual([]);
    const counts = countByCall(rows);
    for (const { generationId } of results) {
      for (const call of ['call_lookup', 'call_refund', 'call_pin'])
        expect(counts.get(`${generationId}/${call}`)).toBe(1);
    }
    expect(rows).toHaveLength(3 * GENERATIONS);

    // Every log is contiguous: each event stored once, each run numbered without a gap, from
    // `started` to `completed`; and the secret is in none of it, nor in anything sent.
    let events = 0;
    for (const { generationId } of results) {
      const log = await expectContiguousLog(runtime.bus, server.url, generationId);
      expect(JSON.stringify(log)).not.toContain(CANARY);
      // Completed, so its checkpoint was removed (what was sent is checked on the wire below).
      expect(await runtime.bus.checkpoints.load(generationId)).toBeUndefined();
      events += log.length;
    }
    await tap.flush();
    expect(tap.saw(CANARY)).toBe(false);
    expect(tap.saw('[FILTERED]')).toBe(true);
    const spans = tracing.finishedSpans();
    expect(spans.length).toBeGreaterThan(GENERATIONS);
    expect(spans.some((span) => spanText(span).includes(CANARY))).toBe(false);

    recordFigure('server_restarts', {
      generations: GENERATIONS,
      restarts: KILL_AT.length,
      inFlightAtKill,
      events,
      seconds: Number(seconds.toFixed(1)),
      wireMessages: tap.count,
      spans: spans.length,
    });
  }, 180_000);
});
