import { BusConnectionError, BusUnavailableError, natsBus, natsNames } from '@interlude/bus';
import { sampleEvent } from '@interlude/bus/testing';
import type { Bus } from '@interlude/core';
import type { BusHealth } from '@interlude/core/internal';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../support/bus-raw-log.js';
import { scratchDirectory } from '../support/configured-nats.js';
import { type StartedNatsServer, startNatsServer } from '../support/global-setup.js';

const { eventsStream: EVENTS_STREAM } = natsNames();

const servers: StartedNatsServer[] = [];
const buses: Bus[] = [];

afterEach(async () => {
  await Promise.all(buses.splice(0).map((bus) => bus.close()));
});

afterAll(() => {
  for (const server of servers) server.process.kill('SIGKILL');
});

async function privateServer(jetstream = true): Promise<StartedNatsServer> {
  const server = await startNatsServer(await scratchDirectory('setup-checks'), -1, { jetstream });
  servers.push(server);
  return server;
}

function openBus(options: Parameters<typeof natsBus>[0]): Bus {
  const bus = natsBus({ onError: () => undefined, ...options });
  buses.push(bus);
  return bus;
}

describe('natsBus checks the server and its streams before it runs anything', () => {
  it('refuses a server without JetStream with unsupported_server, at once', async () => {
    const server = await privateServer(false);
    const refused = await openBus({ servers: server.url })
      .publish(sampleEvent('gen_no_js', 0, 'started'))
      .catch((error: unknown) => error);
    expect(BusConnectionError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({ code: 'unsupported_server', message: expect.stringContaining('JetStream') });
  });

  it('with updateStreams, changes streams made with other limits to its own, and runs', async () => {
    const server = await privateServer();
    await openBus({ servers: server.url, eventMaxAgeMs: 0 }).publish(sampleEvent('gen_before', 0, 'started'));
    const refused = await openBus({ servers: server.url })
      .publish(sampleEvent('gen_refused', 0, 'started'))
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({
      code: 'stream_config_mismatch',
      message: expect.stringContaining('INTERLUDE_EVENTS.max_age is 0 (forever), wanted 2592000000 ms'),
    });
    const updated = openBus({ servers: server.url, updateStreams: true });
    await updated.publish(sampleEvent('gen_after', 0, 'started'));
    const connection = await connect({ servers: server.url });
    try {
      const info = await (await jetstreamManager(connection)).streams.info(EVENTS_STREAM);
      expect(info.config.max_age).toBe(30 * 24 * 60 * 60 * 1_000 * 1_000_000);
      expect(info.config.max_bytes).toBe(1024 ** 3);
    } finally {
      await connection.close();
    }
    // Nothing stored before the update was lost by it.
    expect((await updated.events('gen_before')).map((event) => event.event)).toEqual(['started']);
  });

  it('with no server to reach, a call gives up with bus_unavailable after unavailableAfterMs, and says why', async () => {
    const statuses: BusHealth[] = [];
    const bus = openBus({
      servers: `nats://127.0.0.1:${await freePort()}`,
      unavailableAfterMs: 300,
      onStatus: (status) => statuses.push(status),
    });
    const failed = await bus.checkpoints.load('gen_nowhere').catch((error: unknown) => error);
    expect(BusUnavailableError.isInstance(failed)).toBe(true);
    expect(failed).toMatchObject({
      code: 'bus_unavailable',
      operation: 'checkpoints.load',
      message: expect.stringContaining('not connected to NATS yet'),
    });
    expect(statuses).toEqual([{ ok: false, reason: expect.stringContaining('checkpoints.load gave up after 300 ms') }]);
  });

  it('refuses bad limits and bounds when it is made, before it connects', () => {
    const servers = 'nats://127.0.0.1:1';
    expect(() => natsBus({ servers, unavailableAfterMs: 0 })).toThrow(/unavailableAfterMs must be a positive number/);
    expect(() => natsBus({ servers, eventMaxBytes: -1 })).toThrow(/eventMaxBytes must be a whole number/);
    expect(() => natsBus({ servers, replicas: 7 })).toThrow(/replicas must be an integer from 1 to 5/);
  });

  it('refuses a prefix that is no NATS name with the stable code invalid_prefix, before it connects', () => {
    // An unreachable server: the bus would only report it later, so a throw here is the option check.
    expect(() => natsBus({ servers: 'nats://127.0.0.1:1', prefix: 'acme.prod' })).toThrow(
      expect.objectContaining({
        name: 'InterludeError',
        code: 'invalid_prefix',
        message: expect.stringContaining('"acme.prod"'),
      }),
    );
  });
});
