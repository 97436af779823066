import { copyFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { memoryBus, natsRoles } from '@interlude/bus';
import { createRuntime } from '@interlude/core';
import { semconv } from '@interlude/telemetry';
import { createUser } from '@nats-io/nkeys';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { defineAgents, importAgentsFactory } from '../../packages/bus/src/worker-process/agents-module.js';
import { startDeploymentRuntime } from '../../packages/bus/src/worker-process/deployment-settings.js';
import { SettingsError } from '../../packages/bus/src/worker-process/environment-values.js';
import { readWorkerSettings } from '../../packages/bus/src/worker-process/worker-settings.js';
import { type ConfiguredNats, scratchDirectory, startConfiguredNats, tlsBlock } from '../support/configured-nats.js';
import { startOtlpReceiver } from '../support/otlp-receiver.js';
import { makeTestCertificates, type TestCertificates } from '../support/tls-certificates.js';
import { probe, startWorkerBin, type WorkerBin } from '../support/worker-bin-process.js';

const started: WorkerBin[] = [];
const servers: ConfiguredNats[] = [];
afterAll(async () => {
  await Promise.all(started.map((worker) => worker.stop('SIGKILL')));
  await Promise.all(servers.map((server) => server.stop()));
});

const VALID_MODULE = 'support/worker-bin-module-flaws.ts';
const ROLES_FILE = new URL('../../packages/bus/nats/interlude-roles.conf', import.meta.url);

function start(env: Record<string, string>, modulePath = VALID_MODULE): WorkerBin {
  const worker = startWorkerBin(modulePath, { INTERLUDE_QUEUE: `config-${process.pid}`, ...env });
  started.push(worker);
  return worker;
}

/** Runs the bin to its end: its exit code and what it said on stderr. */
async function refusal(
  env: Record<string, string>,
  modulePath?: string,
): Promise<{ code: number | null; said: string }> {
  const worker = start(env, modulePath);
  const code = await worker.exited;
  expect(worker.lines.filter((line) => line.includes('ready:'))).toEqual([]);
  return { code, said: worker.errors() };
}

/** The problems `work` is refused with as a bad configuration (the bin exits 2 on them), or none. */
async function problemsOf(work: () => Promise<void>): Promise<readonly string[]> {
  try {
    await work();
    return [];
  } catch (error) {
    if (error instanceof SettingsError) return error.problems;
    throw error;
  } finally {
    vi.unstubAllEnvs();
  }
}

/**
 * What the bin does with `env` before it serves, run in this process (its settings, its runtime
 * on NATS): the problems it would refuse the configuration with. The bin's own process (exit
 * codes, stderr, secrets kept out of it) is tried above with a real one.
 */
function settingsProblems(env: Record<string, string>): Promise<readonly string[]> {
  vi.stubEnv('INTERLUDE_CHECKPOINT_KEY', env['INTERLUDE_CHECKPOINT_KEY'] ?? process.env['INTERLUDE_CHECKPOINT_KEY']);
  return problemsOf(async () => {
    const settings = readWorkerSettings([VALID_MODULE], { ...process.env, ...env });
    await startDeploymentRuntime(settings, { name: 'interlude-worker settings test' }).close();
  });
}

/** The bin's check of a module of agents, in this process: the problems it refuses it with. */
async function moduleProblems(modulePath: string, flaw?: string): Promise<readonly string[]> {
  if (flaw !== undefined) vi.stubEnv('MODULE_FLAW', flaw);
  const runtime = createRuntime({ bus: memoryBus() });
  try {
    return await problemsOf(async () => {
      await defineAgents(await importAgentsFactory(join('test', modulePath)), runtime, modulePath);
    });
  } finally {
    await runtime.close();
  }
}

/**
 * Connects with the NATS settings the bin reads from `env`, in this process: what reading an event
 * log there gives, `connected` or the refusal's code.
 */
async function connects(env: Record<string, string>): Promise<string> {
  const settings = readWorkerSettings([VALID_MODULE], { ...process.env, ...env });
  const runtime = startDeploymentRuntime(settings, { name: 'interlude-worker connection test' });
  try {
    await runtime.bus.events('gen_00000000000000000000000000000000');
    return 'connected';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  } finally {
    await runtime.close();
  }
}

/** Starts it, waits for ready, checks /readyz, then drains it: exit 0, nothing said on stderr. */
async function runsAndDrains(env: Record<string, string>, afterReady = async () => undefined): Promise<void> {
  const worker = start(env);
  const health = await worker.healthUrl();
  await worker.waitForLine(/^interlude-worker: ready: /, 30_000);
  expect((await probe(`${health}/readyz`)).status).toBe(200);
  await afterReady();
  worker.process.kill('SIGTERM');
  expect(await worker.exited).toBe(0);
  expect(worker.errors()).toBe('');
}

describe('interlude-worker refuses a bad configuration before it runs anything', () => {
  it('lists every problem of its environment and exits 2', async () => {
    const { code, said } = await refusal(
      {
        NATS_URL: '',
        INTERLUDE_CONCURRENCY: 'four',
        INTERLUDE_NATS_TOKEN: 'secret-token',
        INTERLUDE_NATS_USER: 'w',
        INTERLUDE_PAYLOAD_KEY: 'hunter2-payload',
      },
      '',
    );
    expect(code).toBe(2);
    expect(said).toContain('interlude-worker: bad configuration:');
    expect(said).toContain('  module: give the path of your module of agents');
    expect(said).toContain('  NATS_URL: required');
    expect(said).toContain('  INTERLUDE_NATS_USER/INTERLUDE_NATS_PASSWORD, INTERLUDE_NATS_TOKEN: give one way');
    expect(said).toContain('  INTERLUDE_CONCURRENCY: must be a whole number from 1 to 1000');
    expect(said).toContain('Run interlude-worker --help for every setting.');
    expect(said).toContain('  INTERLUDE_PAYLOAD_KEY: Payload key 1 of INTERLUDE_PAYLOAD_KEY is not 32 bytes');
    expect(said).not.toContain('secret-token');
    expect(said).not.toContain('hunter2');
  });

  it('prints the roles file of INTERLUDE_PREFIX with --nats-roles, and refuses a bad prefix (exit 2)', async () => {
    const roles = start({ INTERLUDE_PREFIX: 'acme' }, '--nats-roles');
    expect(await roles.exited).toBe(0);
    expect(roles.lines.join('\n').trim()).toBe(natsRoles('acme').trim());
    const { code, said } = await refusal({ INTERLUDE_PREFIX: 'acme.prod' }, '--nats-roles');
    expect([code, said]).toEqual([2, expect.stringContaining('INTERLUDE_PREFIX: prefix must be')]);
  });

  it('refuses a module that breaks the contract (exit 2) or fails (exit 1), saying which', async () => {
    const nats = { NATS_URL: inject('natsUrl') };
    // Through Node's own loader, in the bin: a module that is not there, and one that throws.
    const missing = await refusal(nats, 'support/no-such-module.ts');
    expect(missing.code).toBe(2);
    expect(missing.said).toContain('module: cannot find support/no-such-module.ts');
    const throws = await refusal({ ...nats, MODULE_FLAW: 'throws' });
    expect(throws.code).toBe(1);
    expect(throws.said).toContain('failed: the model registry is unreachable');
    // The contract itself, checked by the same code in this process: each a configuration problem (exit 2).
    expect((await moduleProblems('support/worker-process.ts')).join('\n')).toMatch(
      /must export default a function \(runtime\) => agents.*it exports .*requiredSetting/,
    );
    expect(await moduleProblems(VALID_MODULE, 'own-runtime')).toEqual([
      `module: agent echo was defined without the worker's runtime: defineAgent({ runtime, … })`,
    ]);
    expect((await moduleProblems(VALID_MODULE, 'empty')).join('\n')).toContain(
      'must return a non-empty array of agents',
    );
    expect(await moduleProblems(VALID_MODULE)).toEqual([]);
  }, 60_000);

  it('needs INTERLUDE_CHECKPOINT_KEY, and a free health port', async () => {
    expect(
      (await settingsProblems({ NATS_URL: inject('natsUrl'), INTERLUDE_CHECKPOINT_KEY: '' })).join('\n'),
    ).toContain('set INTERLUDE_CHECKPOINT_KEY');
    expect(await settingsProblems({ NATS_URL: inject('natsUrl') })).toEqual([]);

    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    const busy = await refusal({
      NATS_URL: inject('natsUrl'),
      INTERLUDE_HEALTH_HOST: '127.0.0.1',
      INTERLUDE_HEALTH_PORT: String(port),
    });
    taken.close();
    expect(busy.code).toBe(2);
    expect(busy.said).toContain(`INTERLUDE_HEALTH_PORT: cannot listen on 127.0.0.1:${port} (EADDRINUSE)`);
  }, 60_000);
});

describe('interlude-worker connects with the credentials and TLS files its environment names', () => {
  let certificates: TestCertificates;
  beforeAll(async () => {
    certificates = await makeTestCertificates(await scratchDirectory('worker-bin-certificates'), ['worker']);
  });

  async function server(configuration: string, env: Record<string, string> = {}) {
    const started = await startConfiguredNats(await scratchDirectory('worker-bin-nats'), configuration, env);
    servers.push(started);
    return started;
  }

  it("user and password as the roles file's interlude-worker: a wrong one exits 1 naming the refusal, the right one runs with its metrics and no permission refused", async () => {
    const directory = await scratchDirectory('worker-bin-roles');
    await copyFile(ROLES_FILE, join(directory, 'interlude-roles.conf'));
    const nats = await startConfiguredNats(directory, 'include ./interlude-roles.conf\n', {
      INTERLUDE_APPLICATION_PASSWORD: 'application-password-5e2',
      INTERLUDE_WORKER_PASSWORD: 'worker-password-3c1',
      INTERLUDE_OBSERVER_PASSWORD: 'observer-password-88d',
    });
    servers.push(nats);
    const wrong = await refusal({
      NATS_URL: nats.url,
      INTERLUDE_NATS_USER: 'interlude-worker',
      INTERLUDE_NATS_PASSWORD: 'not-the-password',
    });
    expect(wrong.code).toBe(1);
    expect(wrong.said).toContain(`cannot start: nats-server at ${nats.url} refused the bus's credentials`);
    expect(wrong.said).not.toContain('not-the-password');
    const receiver = await startOtlpReceiver();
    try {
      await runsAndDrains(
        {
          NATS_URL: nats.url,
          INTERLUDE_NATS_USER: 'interlude-worker',
          INTERLUDE_NATS_PASSWORD: 'worker-password-3c1',
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
          OTEL_METRIC_EXPORT_INTERVAL: '200',
        },
        // A reading of the questions-waiting gauge reads the pending view, which the role allows.
        async () => {
          await receiver.waitForMetric((point) => point.name === semconv.METRIC_INTERLUDE_INPUT_REQUESTS_WAITING);
          await new Promise((resolve) => setTimeout(resolve, 500));
        },
      );
    } finally {
      await receiver.close();
    }
  }, 60_000);

  it('an nkey seed file', async () => {
    const user = createUser();
    const nats = await server(`authorization { users = [ { nkey: ${user.getPublicKey()} } ] }\n`);
    const seedFile = join(nats.directory, 'worker.nk');
    await writeFile(seedFile, `${new TextDecoder().decode(user.getSeed())}\n`, { mode: 0o600 });
    // The bin's settings and runtime, in this process: the roles test above runs the bin itself.
    expect(await connects({ NATS_URL: nats.url, INTERLUDE_NATS_NKEY: seedFile })).toBe('connected');
    expect(await connects({ NATS_URL: nats.url })).toBe('authorization_failed');
  }, 60_000);

  it('mutual TLS: the CA, a client certificate and its key', async () => {
    const nats = await server(tlsBlock(certificates, true));
    const worker = certificates.clients['worker'] as { certFile: string; keyFile: string };
    const tls = { NATS_URL: nats.url, INTERLUDE_NATS_TLS_CA: certificates.caFile };
    expect(
      await connects({ ...tls, INTERLUDE_NATS_TLS_CERT: worker.certFile, INTERLUDE_NATS_TLS_KEY: worker.keyFile }),
    ).toBe('connected');
    expect(await connects(tls)).toBe('tls_failed');
  }, 60_000);
});
