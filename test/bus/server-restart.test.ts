import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createWorker, natsBus } from '@interlude/bus';
import { eventually, sampleEvent, uniqueId } from '@interlude/bus/testing';
import { createRuntime } from '@interlude/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, rawStoredEventIds } from '../support/bus-raw-log.js';
import { defineRefundAgent } from '../support/bus-refund-agent.js';
import { expectContiguousLog } from '../support/expect-contiguous-log.js';
import { type StartedNatsServer, startNatsServer } from '../support/global-setup.js';
import { killNatsServer } from '../support/kill-nats-server.js';

let storeDirectory: string;
let server: StartedNatsServer;
let port: number;

beforeAll(async () => {
  storeDirectory = await mkdtemp(join(tmpdir(), 'interlude-restart-'));
  port = await freePort();
  server = await startNatsServer(storeDirectory, port);
});

afterAll(async () => {
  server.process.kill('SIGKILL');
  await rm(storeDirectory, { recursive: true, force: true });
});

async function effectCount(file = 'effects.jsonl'): Promise<number> {
  const text = await readFile(join(storeDirectory, file), 'utf8').catch(() => '');
  return text.split('\n').filter((line) => line !== '').length;
}

describe('natsBus before its server starts', () => {
  it('waits for the server: a publish made first is stored once it is up; close() never hangs', async () => {
    const laterPort = await freePort();
    const laterDirectory = await mkdtemp(join(tmpdir(), 'interlude-later-'));
    const bus = natsBus({ servers: `nats://127.0.0.1:${laterPort}`, requestTimeoutMs: 1_000 });
    const generationId = uniqueId('gen');
    let stored = false;
    const publishing = bus.publish(sampleEvent(generationId, 0, 'started')).then(() => {
      stored = true;
    });
    await sleep(300);
    expect(stored).toBe(false);
    const late = await startNatsServer(laterDirectory, laterPort);
    try {
      await publishing;
      expect((await bus.events(generationId)).map((event) => event.id)).toEqual([`${generationId}:start:0`]);
      await bus.close();
    } finally {
      late.process.kill('SIGKILL');
      await rm(laterDirectory, { recursive: true, force: true });
    }

    const nowhere = natsBus({ servers: `nats://127.0.0.1:${await freePort()}` });
    const started = Date.now();
    await nowhere.close();
    expect(Date.now() - started).toBeLessThan(1_000);
  }, 30_000);
});

describe('natsBus across a server restart', () => {
  it('stores every event published while the server was away exactly once, in order', async () => {
    const bus = natsBus({ servers: server.url, requestTimeoutMs: 1_000, onError: () => undefined });
    const generations = Array.from({ length: 8 }, () => uniqueId('gen'));
    const perGeneration = 40;
    let stored = 0;
    const publishing = generations.map(async (generationId) => {
      for (let index = 0; index < perGeneration; index += 1) {
        await bus.publish(sampleEvent(generationId, index, index === 0 ? 'started' : 'model_responded'));
        stored += 1;
        await sleep(10);
      }
    });

    await eventually(() => stored >= generations.length, 'the first events to be stored');
    await killNatsServer(server);
    const storedBeforeKill = stored;
    await sleep(700);
    // Nothing can be stored while the server is down: the publishes wait and retry.
    expect(stored).toBe(storedBeforeKill);
    server = await startNatsServer(storeDirectory, port);
    await Promise.all(publishing);
    expect(storedBeforeKill).toBeGreaterThan(0);
    expect(storedBeforeKill).toBeLessThan(generations.length * perGeneration);

    for (const generationId of generations) {
      const expected = Array.from({ length: perGeneration }, (_, index) => `${generationId}:start:${index}`);
      expect(await rawStoredEventIds(server.url, generationId)).toEqual(expected);
      expect((await bus.events(generationId)).map((event) => event.id)).toEqual(expected);
    }
    await bus.close();
  }, 60_000);

  it('generations running through a kill and restart all complete, each event stored exactly once', async () => {
    const runtime = createRuntime({
      bus: natsBus({ servers: server.url, requestTimeoutMs: 1_000, onError: () => undefined }),
    });
    const support = defineRefundAgent(runtime, {
      sideEffectsFile: join(storeDirectory, 'effects.jsonl'),
      modelDelayMs: 40,
      lookups: 4,
    });
    const runs = Array.from({ length: 6 }, async (_, ticketId) => {
      const paused = await support.generation('handle', { ticketId }).generateNow();
      const done = await runtime.answer(paused.generationId, { call_refund: true });
      return { generationId: paused.generationId, status: done.status };
    });

    let effectsSoFar = 0;
    while (effectsSoFar === 0) {
      await sleep(10);
      effectsSoFar = await effectCount();
    }
    await killNatsServer(server);
    // The generations were under way when the server died: some tools ran, none had finished.
    const effectsAtKill = await effectCount();
    expect(effectsAtKill).toBeGreaterThan(0);
    expect(effectsAtKill).toBeLessThan(6 * 6);
    await sleep(700);
    server = await startNatsServer(storeDirectory, port);
    const results = await Promise.all(runs);
    expect(await effectCount()).toBe(6 * 6);

    for (const { generationId, status } of results) {
      expect(status).toBe('completed');
      const log = await expectContiguousLog(runtime.bus, server.url, generationId);
      // 4 lookups, the lookup beside the refund, the refund: none lost, none twice.
      expect(log.filter((event) => event.event === 'tool_completed')).toHaveLength(6);
    }
    await runtime.close();
  }, 60_000);

  it('a worker keeps running jobs through a kill and restart: every job finishes once', async () => {
    const runtime = createRuntime({
      bus: natsBus({ servers: server.url, requestTimeoutMs: 1_000, jobAckWaitMs: 5_000, onError: () => undefined }),
    });
    const support = defineRefundAgent(runtime, {
      sideEffectsFile: join(storeDirectory, 'worker-effects.jsonl'),
      modelDelayMs: 40,
      lookups: 3,
    });
    const outcomes = new Map<string, string[]>();
    const worker = createWorker({
      runtime,
      agents: [support],
      queue: 'restart',
      concurrency: 3,
      onJob: (job, outcome) =>
        outcomes.set(job.generation_id, [...(outcomes.get(job.generation_id) ?? []), outcome.status]),
    });
    await worker.ready;
    const queued = await Promise.all(
      Array.from({ length: 6 }, (_, ticketId) =>
        support.generation('handle', { ticketId }).generateLater({ queue: 'restart' }),
      ),
    );

    // Killed once the jobs are under way: a tool of one has run, and not every job has finished.
    await eventually(async () => (await effectCount('worker-effects.jsonl')) > 0, 'a job under way', 20_000);
    await killNatsServer(server);
    expect(outcomes.size).toBeLessThan(queued.length);
    await sleep(700);
    server = await startNatsServer(storeDirectory, port);
    await eventually(() => outcomes.size === queued.length, 'every job after the restart', 30_000);

    for (const { generationId } of queued) {
      expect(outcomes.get(generationId)).toEqual(['awaiting_input']);
      const log = await runtime.bus.events(generationId);
      expect(log.at(-1)?.event).toBe('input_requested');
      expect(new Set(log.map((event) => event.id)).size).toBe(log.length);
    }
    await worker.stop();
    await runtime.close();
  }, 60_000);
});
