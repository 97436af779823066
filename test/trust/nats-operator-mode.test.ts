import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BusConnectionError, createWorker, credsAuthenticator, natsBus, type Worker } from '@interlude/bus';
import { createRuntime, type GenerationEvent, type Runtime } from '@interlude/core';
import { connect, type Status } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConfiguredNats,
  connectionOutcome,
  scratchDirectory,
  startConfiguredNats,
} from '../support/configured-nats.js';
import { mintOperatorMode, type OperatorMode, rolePermissions } from '../support/nats-operator.js';
import { defineTrustDesk, type Refund } from '../support/trust-desk.js';
import { probe, startWorkerBin, type WorkerBin } from '../support/worker-bin-process.js';

/**
 * Operator mode (decentralised JWT authentication), as `nsc` would set it up: an operator, a
 * system account and an application account with JetStream, all minted here with @nats-io/jwt;
 * users connect with creds files.
 */
let operatorMode: OperatorMode;
let nats: ConfiguredNats;
let directory: string;
const closers: (() => Promise<unknown>)[] = [];
/** What the buses could not throw to a caller (a refused permission shows up here). */
const reported: string[] = [];

beforeAll(async () => {
  operatorMode = await mintOperatorMode();
  directory = await scratchDirectory('nats-operator');
  nats = await startConfiguredNats(directory, operatorMode.configuration);
});
afterAll(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await nats?.stop();
});

async function credsFile(name: string, creds: string): Promise<string> {
  const file = join(directory, `${name}.creds`);
  await writeFile(file, creds, { mode: 0o600 });
  return file;
}

function runtimeWith(role: string, authenticator: ReturnType<typeof credsAuthenticator>): Runtime {
  const runtime = createRuntime({
    bus: natsBus({
      servers: nats.url,
      authenticator,
      onError: (error, context) => void reported.push(`${role}: ${context}: ${String(error)}`),
    }),
  });
  closers.push(() => runtime.close());
  return runtime;
}

describe('natsBus against an operator-mode nats-server (user JWTs in creds files)', () => {
  it("the roles file's application and worker, as user JWT permissions, run a pause and a resume: creds from a file and as text", async () => {
    const applicationFile = await credsFile(
      'application',
      await operatorMode.userCreds('interlude-application', await rolePermissions('INTERLUDE_APPLICATION')),
    );
    const workerCreds = await operatorMode.userCreds('interlude-worker', await rolePermissions('INTERLUDE_WORKER'));
    // The documented forms: the file's bytes, and creds text a secret store handed over.
    const application = runtimeWith('application', credsAuthenticator(readFileSync(applicationFile)));
    const workerRuntime = runtimeWith('worker', credsAuthenticator(new TextEncoder().encode(workerCreds)));
    const refunds: Refund[] = [];
    const desk = defineTrustDesk(application, refunds);
    const worker: Worker = createWorker({ runtime: workerRuntime, agents: [defineTrustDesk(workerRuntime, refunds)] });
    closers.push(() => worker.stop());
    await worker.ready;

    const paused = new Promise<GenerationEvent>(
      (resolve) => void application.bus.subscribe('input_requested', resolve),
    );
    const { generationId } = await desk.refund({ account: 'alice' }).generateLater();
    expect((await paused).generation_id).toBe(generationId);
    const completed = new Promise<GenerationEvent>((resolve) => void application.bus.subscribe('completed', resolve));
    await application.answerLater(generationId, { call_refund: true });
    expect((await completed).generation_id).toBe(generationId);
    expect(refunds).toEqual([{ account: 'alice', amount: 30, generationId }]);
    await expect.poll(() => application.bus.checkpoints.load(generationId)).toBeUndefined();
    expect((await application.bus.events(generationId)).map((event) => event.event)).toContain('resumed');
    expect(reported).toEqual([]);

    // The permissions are the server's to enforce: the worker's user may not queue a job.
    const connection = await connect({
      servers: nats.url,
      authenticator: credsAuthenticator(new TextEncoder().encode(workerCreds)),
    });
    closers.push(() => connection.close());
    const errors: string[] = [];
    void (async () => {
      for await (const status of connection.status() as AsyncIterable<Status>) {
        if (status.type === 'error') errors.push(String(status.error));
      }
    })();
    connection.publish('interlude.jobs.agents', '{}');
    await connection.flush();
    await expect
      .poll(() => errors.join('\n'))
      .toMatch(/Permissions Violation for Publish to "interlude\.jobs\.agents"/);
  });

  it('a user JWT from another operator, or no credentials, is refused at once with authorization_failed', async () => {
    const stranger = await (await mintOperatorMode('another-operator')).userCreds('interlude-worker');
    const refusedBus = natsBus({
      servers: nats.url,
      authenticator: credsAuthenticator(new TextEncoder().encode(stranger)),
      onError: () => undefined,
    });
    const anonymousBus = natsBus({ servers: nats.url, onError: () => undefined });
    closers.push(
      () => refusedBus.close(),
      () => anonymousBus.close(),
    );
    const started = Date.now();
    const refused = await refusedBus.events('gen_x').catch((error: unknown) => error);
    expect(BusConnectionError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({ code: 'authorization_failed', server: nats.url });
    expect(await connectionOutcome(anonymousBus)).toBe('authorization_failed');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("interlude-worker with INTERLUDE_NATS_CREDS (the roles file's worker) becomes ready, and drains on SIGTERM", async () => {
    const file = await credsFile(
      'bin-worker',
      await operatorMode.userCreds('interlude-worker', await rolePermissions('INTERLUDE_WORKER')),
    );
    const worker: WorkerBin = startWorkerBin('support/worker-bin-module-flaws.ts', {
      NATS_URL: nats.url,
      INTERLUDE_NATS_CREDS: file,
      INTERLUDE_QUEUE: `operator-${process.pid}`,
    });
    closers.push(() => worker.stop('SIGKILL'));
    const health = await worker.healthUrl();
    await worker.waitForLine(/^interlude-worker: ready: /, 20_000);
    expect((await probe(`${health}/readyz`)).status).toBe(200);
    worker.process.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    expect(worker.errors()).toBe('');
  });
});
