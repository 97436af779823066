import { type BusConnectionError, natsBus } from '@interlude/bus';
import type { Bus } from '@interlude/core';
import { createUser } from '@nats-io/nkeys';
import { nkeyAuthenticator } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConfiguredNats,
  connectionOutcome as outcome,
  scratchDirectory,
  startConfiguredNats,
  tlsBlock,
} from '../support/configured-nats.js';
import { makeTestCertificates, type TestCertificates } from '../support/tls-certificates.js';

const servers: ConfiguredNats[] = [];
const buses: Bus[] = [];
afterAll(async () => {
  await Promise.all(buses.splice(0).map((bus) => bus.close()));
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});

async function server(
  configuration: (directory: string) => string | Promise<string>,
  env: Record<string, string> = {},
) {
  const directory = await scratchDirectory('nats-auth');
  const started = await startConfiguredNats(directory, await configuration(directory), env);
  servers.push(started);
  return started;
}

function bus(options: Parameters<typeof natsBus>[0]): Bus {
  const created = natsBus({ ...options, onError: () => undefined });
  buses.push(created);
  return created;
}

describe('natsBus against a server that requires credentials', () => {
  it('user and password: refused at once without them or with wrong ones, works with options or in the URL', async () => {
    const nats = await server(() => `authorization { users = [ { user: desk, password: $DESK_PASSWORD } ] }\n`, {
      DESK_PASSWORD: 'desk-password-9f2',
    });
    const port = nats.port;
    expect(await outcome(bus({ servers: nats.url }))).toBe('authorization_failed');
    expect(await outcome(bus({ servers: nats.url, user: 'desk', pass: 'wrong' }))).toBe('authorization_failed');
    expect(await outcome(bus({ servers: nats.url, user: 'desk', pass: 'desk-password-9f2' }))).toBe('works');
    expect(await outcome(bus({ servers: `nats://desk:desk-password-9f2@127.0.0.1:${port}` }))).toBe('works');
  });

  it('a token, as an option or in the URL; the error never repeats the credentials it was given', async () => {
    const nats = await server(() => 'authorization { token: $DESK_TOKEN }\n', { DESK_TOKEN: 'desk-token-71b' });
    expect(await outcome(bus({ servers: nats.url, token: 'desk-token-71b' }))).toBe('works');
    expect(await outcome(bus({ servers: `nats://desk-token-71b@127.0.0.1:${nats.port}` }))).toBe('works');
    const refused = await bus({ servers: `nats://not-the-token@127.0.0.1:${nats.port}` })
      .events('gen_x')
      .catch((error: unknown) => error as BusConnectionError);
    expect(refused).toMatchObject({ code: 'authorization_failed', server: `nats://127.0.0.1:${nats.port}` });
    expect(String((refused as Error).message)).not.toContain('not-the-token');
  });

  it('an nkey, through an authenticator', async () => {
    const user = createUser();
    const seed = new TextDecoder().decode(user.getSeed());
    const nats = await server(() => `authorization { users = [ { nkey: ${user.getPublicKey()} } ] }\n`);
    expect(
      await outcome(bus({ servers: nats.url, authenticator: nkeyAuthenticator(new TextEncoder().encode(seed)) })),
    ).toBe('works');
    expect(await outcome(bus({ servers: nats.url }))).toBe('authorization_failed');
  });
});

describe('natsBus over TLS, with certificates made for the test', () => {
  let certificates: TestCertificates;
  beforeAll(async () => {
    certificates = await makeTestCertificates(await scratchDirectory('certificates'), ['worker']);
  });

  it('TLS: works with the CA, fails at once (tls_failed) without it', async () => {
    const nats = await server(() => tlsBlock(certificates, false));
    expect(await outcome(bus({ servers: nats.url, tls: { caFile: certificates.caFile } }))).toBe('works');
    expect(await outcome(bus({ servers: nats.url }))).toBe('tls_failed');
  });

  it('mutual TLS: works with a client certificate; without one, or with one from another CA, fails at once instead of hanging', async () => {
    const nats = await server(() => tlsBlock(certificates, true));
    const worker = certificates.clients['worker'] as { certFile: string; keyFile: string };
    expect(await outcome(bus({ servers: nats.url, tls: { caFile: certificates.caFile, ...worker } }))).toBe('works');
    expect(await outcome(bus({ servers: nats.url, tls: { caFile: certificates.caFile } }))).toBe('tls_failed');
    expect(
      await outcome(bus({ servers: nats.url, tls: { caFile: certificates.caFile, ...certificates.stranger } })),
    ).toBe('tls_failed');
  });
});
