import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { natsBus } from '@interlude/bus';
import { sampleEvent, uniqueId } from '@interlude/bus/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, rawStoredEventIds } from '../support/bus-raw-log.js';
import { type StartedNatsServer, startNatsServer } from '../support/global-setup.js';

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

async function killServer(): Promise<void> {
  const exited = new Promise((resolve) => server.process.once('exit', resolve));
  server.process.kill('SIGKILL');
  await exited;
}

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

    await sleep(150);
    await killServer();
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
});
