import { copyFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createWorker, natsBus, natsRoles, type Worker } from '@interlude/bus';
import { createRuntime, type GenerationEvent, type Runtime } from '@interlude/core';
import { connect, type NatsConnection, type Status } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNATURE_HEADER } from '../../packages/bus/src/event-signature.js';
import { type ConfiguredNats, scratchDirectory, startConfiguredNats, tlsBlock } from '../support/configured-nats.js';
import { makeTestCertificates, type TestCertificates } from '../support/tls-certificates.js';
import { defineTrustDesk, type Refund } from '../support/trust-desk.js';

const ROLES_FILE = new URL('../../packages/bus/nats/interlude-roles.conf', import.meta.url);
const PASSWORDS = {
  INTERLUDE_APPLICATION_PASSWORD: 'application-password-4d1',
  INTERLUDE_WORKER_PASSWORD: 'worker-password-93a',
  INTERLUDE_OBSERVER_PASSWORD: 'observer-password-c07',
};

let nats: ConfiguredNats;
let certificates: TestCertificates;
const closers: (() => Promise<unknown>)[] = [];
/** What the buses could not throw to a caller (a permission the roles file forgot shows up here). */
const reported: string[] = [];

/** The repo's roles file included beside a mutual-TLS block, as an operator would deploy it. */
beforeAll(async () => {
  const directory = await scratchDirectory('nats-roles');
  certificates = await makeTestCertificates(directory, ['application', 'worker', 'observer']);
  await copyFile(ROLES_FILE, join(directory, 'interlude-roles.conf'));
  nats = await startConfiguredNats(
    directory,
    `${tlsBlock(certificates, true)}include ./interlude-roles.conf\n`,
    PASSWORDS,
  );
});
afterAll(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await nats?.stop();
});

function tlsFor(role: 'application' | 'worker' | 'observer') {
  return { caFile: certificates.caFile, ...(certificates.clients[role] as { certFile: string; keyFile: string }) };
}

function runtimeAs(role: 'application' | 'worker', password: string): Runtime {
  const runtime = createRuntime({
    bus: natsBus({
      servers: nats.url,
      user: `interlude-${role}`,
      pass: password,
      tls: tlsFor(role),
      onError: (error, context) => void reported.push(`${role}: ${context}: ${String(error)}`),
    }),
  });
  closers.push(() => runtime.close());
  return runtime;
}

async function observer(): Promise<{ connection: NatsConnection; errors: string[] }> {
  const connection = await connect({
    servers: nats.url,
    user: 'interlude-observer',
    pass: PASSWORDS.INTERLUDE_OBSERVER_PASSWORD,
    tls: tlsFor('observer'),
  });
  closers.push(() => connection.close());
  const errors: string[] = [];
  void (async () => {
    for await (const status of connection.status() as AsyncIterable<Status>) {
      if (status.type === 'error') errors.push(String(status.error));
    }
  })();
  return { connection, errors };
}

describe('the three-role nats-server configuration (packages/bus/nats/interlude-roles.conf), over mutual TLS', () => {
  it('the application and a worker run a pause and a resume; an observer reads it but can neither queue a job nor write a checkpoint', async () => {
    const refunds: Refund[] = [];
    const application = runtimeAs('application', PASSWORDS.INTERLUDE_APPLICATION_PASSWORD);
    const workerRuntime = runtimeAs('worker', PASSWORDS.INTERLUDE_WORKER_PASSWORD);
    const desk = defineTrustDesk(application, refunds);
    const worker: Worker = createWorker({ runtime: workerRuntime, agents: [defineTrustDesk(workerRuntime, refunds)] });
    closers.push(() => worker.stop());
    await worker.ready;

    const watching = await observer();
    const heard: { subject: string; event: string; signed: boolean }[] = [];
    watching.connection.subscribe('interlude.gen.>', {
      callback: (error, message) => {
        if (error !== null) return;
        const event = message.json<GenerationEvent>();
        heard.push({
          subject: message.subject,
          event: event.event,
          signed: message.headers?.has(SIGNATURE_HEADER) ?? false,
        });
      },
    });
    await watching.connection.flush();

    const paused = new Promise<GenerationEvent>(
      (resolve) => void application.bus.subscribe('input_requested', resolve),
    );
    const { generationId } = await desk.refund({ account: 'alice' }).generateLater();
    expect((await paused).generation_id).toBe(generationId);
    const stored = await application.bus.checkpoints.load(generationId);

    // The observer tries to queue a job and to overwrite the paused checkpoint: the server refuses both.
    const { connection } = watching;
    connection.publish('interlude.jobs.agents', JSON.stringify({ version: 1, id: 'observer-job', kind: 'generate' }));
    connection.publish(`$KV.interlude_checkpoints.${generationId}`, JSON.stringify({ version: 1, checkpoint: {} }));
    await connection.flush();
    await expect.poll(() => watching.errors.length).toBeGreaterThanOrEqual(2);
    expect(watching.errors.join('\n')).toMatch(/Permissions Violation for Publish to "interlude\.jobs\.agents"/);
    expect(watching.errors.join('\n')).toMatch(/Permissions Violation for Publish to "\$KV\.interlude_checkpoints\./);
    expect((await application.bus.checkpoints.load(generationId))?.checkpoint).toEqual(stored?.checkpoint);

    const completed = new Promise<GenerationEvent>((resolve) => void application.bus.subscribe('completed', resolve));
    await application.answerLater(generationId, { call_refund: true });
    expect((await completed).generation_id).toBe(generationId);
    expect(refunds).toEqual([{ account: 'alice', amount: 30, generationId }]);
    // The worker that completed it removed its checkpoint (a purge its role is granted).
    await expect.poll(() => application.bus.checkpoints.load(generationId)).toBeUndefined();

    // It heard every transition, subjects and event types readable, each signed.
    await expect.poll(() => heard.filter((entry) => entry.event === 'completed')).toHaveLength(1);
    expect(heard.map((entry) => entry.event)).toEqual(
      expect.arrayContaining(['started', 'input_requested', 'resumed', 'tool_completed', 'completed']),
    );
    expect(heard.every((entry) => entry.subject.startsWith('interlude.gen.desk.refund.') && entry.signed)).toBe(true);
    // The application reads the event log and the dead letters; neither role met a refused call
    // (the worker's claims, sweeps and event reads included).
    expect((await application.bus.events(generationId)).map((event) => event.event)).toContain('tool_started');
    expect(await application.bus.jobs.deadLetters('agents')).toEqual([]);
    expect(reported).toEqual([]);
  });

  it('a worker cannot queue jobs and the observer cannot read the job queue or the checkpoint bucket', async () => {
    const workerConnection = await connect({
      servers: nats.url,
      user: 'interlude-worker',
      pass: PASSWORDS.INTERLUDE_WORKER_PASSWORD,
      tls: tlsFor('worker'),
    });
    closers.push(() => workerConnection.close());
    await expect(workerConnection.request('interlude.jobs.agents', '{}', { timeout: 2_000 })).rejects.toThrow(
      /Permissions Violation/,
    );
    // Through natsBus too: a worker's runtime that tries to queue a job fails at once, not after retrying forever.
    const worker = runtimeAs('worker', PASSWORDS.INTERLUDE_WORKER_PASSWORD);
    const queued = defineTrustDesk(worker, []).refund({ account: 'alice' }).generateLater();
    await expect(queued).rejects.toMatchObject({ name: 'PermissionViolationError' });
    const watching = await observer();
    watching.connection.subscribe('interlude.jobs.>');
    watching.connection.subscribe('$KV.interlude_checkpoints.>');
    await watching.connection.flush();
    await expect.poll(() => watching.errors.join('\n')).toMatch(/Subscription to "interlude\.jobs\.>"/);
    await expect.poll(() => watching.errors.join('\n')).toMatch(/Subscription to "\$KV\.interlude_checkpoints\.>"/);
  });
});

describe('natsRoles(prefix): the roles file of a prefixed deployment', () => {
  it('its application and worker run a pause and a resume under the prefix, and may not touch the default names', async () => {
    const directory = await scratchDirectory('nats-roles-prefixed');
    await writeFile(join(directory, 'acme-roles.conf'), natsRoles('acme'));
    const passwords = {
      ACME_INTERLUDE_APPLICATION_PASSWORD: 'acme-application-password-5e2',
      ACME_INTERLUDE_WORKER_PASSWORD: 'acme-worker-password-71b',
      ACME_INTERLUDE_OBSERVER_PASSWORD: 'acme-observer-password-0c9',
    };
    const server = await startConfiguredNats(directory, 'include ./acme-roles.conf\n', passwords);
    closers.push(() => server.stop());
    const problems: string[] = [];
    const runtimeOf = (role: 'application' | 'worker', password: string) => {
      const runtime = createRuntime({
        bus: natsBus({
          servers: server.url,
          prefix: 'acme',
          user: `acme-interlude-${role}`,
          pass: password,
          onError: (error, context) => void problems.push(`${role}: ${context}: ${String(error)}`),
        }),
      });
      closers.push(() => runtime.close());
      return runtime;
    };
    const refunds: Refund[] = [];
    const application = runtimeOf('application', passwords.ACME_INTERLUDE_APPLICATION_PASSWORD);
    const workerRuntime = runtimeOf('worker', passwords.ACME_INTERLUDE_WORKER_PASSWORD);
    const worker = createWorker({ runtime: workerRuntime, agents: [defineTrustDesk(workerRuntime, refunds)] });
    closers.push(() => worker.stop());
    await worker.ready;

    const desk = defineTrustDesk(application, refunds);
    const paused = new Promise<GenerationEvent>(
      (resolve) => void application.bus.subscribe('input_requested', resolve),
    );
    const { generationId } = await desk.refund({ account: 'bob' }).generateLater();
    expect((await paused).generation_id).toBe(generationId);
    const completed = new Promise<GenerationEvent>((resolve) => void application.bus.subscribe('completed', resolve));
    await application.answerLater(generationId, { call_refund: true });
    expect((await completed).generation_id).toBe(generationId);
    expect(refunds).toEqual([{ account: 'bob', amount: 30, generationId }]);
    expect(problems).toEqual([]);

    // The default deployment's names are not its to use.
    const connection = await connect({
      servers: server.url,
      user: 'acme-interlude-application',
      pass: passwords.ACME_INTERLUDE_APPLICATION_PASSWORD,
    });
    closers.push(() => connection.close());
    await expect(connection.request('interlude.jobs.agents', '{}', { timeout: 2_000 })).rejects.toThrow(
      /Permissions Violation/,
    );
  });
});
