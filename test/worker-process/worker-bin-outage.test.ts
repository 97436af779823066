import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { natsBus } from '@interlude/bus';
import { createRuntime, type Runtime } from '@interlude/core';
import type { AgentBase } from '@interlude/core/internal';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type StartedNatsServer, startNatsServer } from '../support/global-setup.js';
import { killNatsServer } from '../support/kill-nats-server.js';
import { defineReliabilityAgent } from '../support/reliability-agent.js';
import { countByCall, createLedger, type Ledger } from '../support/reliability-ledger.js';
import { waitUntil } from '../support/reliability-wait.js';
import { probe, startWorkerBin, type WorkerBin } from '../support/worker-bin-process.js';

const TICKET = 11;

let storeDirectory: string;
let server: StartedNatsServer;
let ledger: Ledger & { drop(): Promise<void> };
let runtime: Runtime;
let support: AgentBase;
const started: WorkerBin[] = [];

beforeAll(async () => {
  storeDirectory = await mkdtemp(join(tmpdir(), 'interlude-worker-outage-'));
  server = await startNatsServer(storeDirectory);
  ledger = await createLedger(inject('postgresUrl'));
  runtime = createRuntime({ bus: natsBus({ servers: server.url, onError: () => undefined }) });
  support = defineReliabilityAgent(runtime, { ledger });
});

afterAll(async () => {
  await Promise.all(started.map((worker) => worker.stop('SIGKILL')));
  await runtime?.close();
  server?.process.kill('SIGKILL');
  await ledger?.drop();
  if (storeDirectory !== undefined) await rm(storeDirectory, { recursive: true, force: true });
});

describe('interlude-worker while its NATS server is down', () => {
  it('stops being ready, still exits 0 within its bound on SIGTERM, and the job it held runs to its end once the server is back', async () => {
    const env = {
      NATS_URL: server.url,
      INTERLUDE_QUEUE: 'outage',
      INTERLUDE_DRAIN_TIMEOUT_MS: '1000',
      POSTGRES_URL: inject('postgresUrl'),
      LEDGER_SCHEMA: ledger.schema,
      HANG_TICKETS: JSON.stringify([TICKET]),
    };
    const first = startWorkerBin('support/worker-bin-agents.ts', env);
    started.push(first);
    const health = await first.healthUrl();
    await first.waitForLine(/^interlude-worker: ready: /, 30_000);
    const { generationId } = await support
      .generation('handle', { ticketId: TICKET })
      .generateLater({ queue: 'outage' });
    const last = async () => (await runtime.bus.events(generationId)).at(-1)?.event;
    await waitUntil(async () => (await last()) === 'input_requested', 'the pause', { timeoutMs: 20_000 });
    await runtime.answerLater(generationId, { call_refund: true }, { queue: 'outage' });
    await first.waitForLine(new RegExp(`^hanging ${TICKET}$`), 20_000);

    await killNatsServer(server);
    await waitUntil(async () => (await probe(`${health}/readyz`)).status === 503, 'readiness to drop', {
      timeoutMs: 10_000,
    });
    expect((await probe(`${health}/readyz`)).body.reason).toMatch(/^not consuming its queue: NATS is unreachable/);
    expect((await probe(`${health}/healthz`)).status).toBe(200);

    first.process.kill('SIGTERM');
    const code = await Promise.race([
      first.exited,
      new Promise<string>((resolve) => setTimeout(() => resolve('still running 10 s after SIGTERM'), 10_000)),
    ]);
    expect(code).toBe(0);

    // The job could not be handed back to a server that was gone: it is redelivered once its ack
    // wait (30 s) runs out, and the refund it already made is not made again.
    server = await startNatsServer(storeDirectory, server.port);
    const second = startWorkerBin('support/worker-bin-agents.ts', env);
    started.push(second);
    await waitUntil(async () => (await last()) === 'completed', 'the generation to complete', {
      timeoutMs: 60_000,
      everyMs: 250,
    });
    second.process.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    const counts = countByCall(await ledger.rows());
    expect([...counts.entries()]).toEqual([
      [`${generationId}/call_lookup`, 1],
      [`${generationId}/call_refund`, 1],
    ]);
  }, 120_000);
});
