import { createWorker, natsBus, natsNames } from '@interlude/bus';
import { uniqueId } from '@interlude/bus/testing';
import { type Bus, createRuntime, type Runtime } from '@interlude/core';
import { createMemoryBus } from '@interlude/core/internal';
import { jetstreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { defineGoAheadAgent } from '../support/go-ahead-agent.js';
import { defineTrustDesk, type Refund } from '../support/trust-desk.js';

const closers: (() => Promise<unknown>)[] = [];
let operator: NatsConnection;
beforeAll(async () => {
  operator = await connect({ servers: inject('natsUrl') });
});
afterAll(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await operator.close();
});

function runtimeOn(bus: Bus): Runtime {
  const runtime = createRuntime({ bus });
  closers.push(() => runtime.close());
  return runtime;
}

/** Three generations: one waits, one was answered, one was cancelled. Returns the one that waits. */
async function threePauses(runtime: Runtime, refunds: Refund[]) {
  const desk = defineTrustDesk(runtime, refunds);
  const waiting = await desk.refund({ account: 'alice' }).generateNow();
  const answered = await desk.refund({ account: 'bob' }).generateNow();
  const cancelled = await desk.refund({ account: 'carol' }).generateNow();
  await runtime.answer(answered.generationId, { call_refund: true });
  await runtime.cancel(cancelled.generationId, 'not needed');
  return waiting;
}

const listing = async (runtime: Runtime) =>
  (await runtime.pending()).map((entry) => [entry.generationId, entry.inputRequests.map((request) => request.prompt)]);

describe('the pending index is rebuilt from the logs', () => {
  it('NATS: the interlude_pending bucket deleted, a new process lists nothing until rebuildPending(), then exactly what waits', async () => {
    // A deployment of its own (a prefix), so deleting its bucket touches no other test's.
    const prefix = uniqueId('rebuild').slice(0, 32);
    closers.push(async () => {
      const manager = await jetstreamManager(operator);
      for (const stream of natsNames(prefix).allStreams) await manager.streams.delete(stream).catch(() => false);
    });
    const refunds: Refund[] = [];
    const before = runtimeOn(natsBus({ servers: inject('natsUrl'), prefix }));
    const waiting = await threePauses(before, refunds);
    expect(await listing(before)).toEqual([[waiting.generationId, ['Refund $30 to alice?']]]);
    await before.close();

    await (await new Kvm(operator).open(natsNames(prefix).pendingBucket)).destroy();
    // A new process makes the bucket again, empty: nothing is listed.
    const after = runtimeOn(natsBus({ servers: inject('natsUrl'), prefix }));
    defineTrustDesk(after, refunds);
    expect(await listing(after)).toEqual([]);

    expect(await after.rebuildPending()).toBe(1);
    expect(await listing(after)).toEqual([[waiting.generationId, ['Refund $30 to alice?']]]);
    expect(await after.rebuildPending()).toBe(1);
    expect(await after.pending()).toHaveLength(1);

    await after.answer(waiting.generationId, { call_refund: true });
    expect(refunds.map((refund) => refund.account)).toEqual(['bob', 'alice']);
    expect(await listing(after)).toEqual([]);
    expect(await after.rebuildPending()).toBe(0);
  });

  it('memory bus: every index record removed, rebuildPending() lists exactly what waits again', async () => {
    const refunds: Refund[] = [];
    const bus = createMemoryBus();
    const runtime = runtimeOn(bus);
    const waiting = await threePauses(runtime, refunds);
    for (const entry of (await bus.pending?.entries()) ?? []) await bus.pending?.remove(entry.generationId);
    expect(await listing(runtime)).toEqual([]);
    expect(await runtime.rebuildPending()).toBe(1);
    expect(await listing(runtime)).toEqual([[waiting.generationId, ['Refund $30 to alice?']]]);
  });
});

describe('deadline timers are rebuilt from the logs', () => {
  it('NATS: the timers stream lost, rebuildPending() sets the timer again (once) and a worker meets the deadline', async () => {
    const prefix = uniqueId('retimer').slice(0, 32);
    const names = natsNames(prefix);
    closers.push(async () => {
      const manager = await jetstreamManager(operator);
      for (const stream of names.allStreams) await manager.streams.delete(stream).catch(() => false);
    });
    const define = (runtime: Runtime) => defineGoAheadAgent(runtime, { name: 'expiring', expiresIn: 1_500 });
    const before = runtimeOn(natsBus({ servers: inject('natsUrl'), prefix }));
    const paused = await define(before).handle({}).generateNow();
    await before.close();
    // The deadline's timer is lost with its stream before any worker took it; a new process makes
    // the stream again, empty.
    const manager = await jetstreamManager(operator);
    await manager.streams.delete(names.timersStream);
    const runtime = runtimeOn(natsBus({ servers: inject('natsUrl'), prefix }));
    define(runtime);
    expect(await runtime.pending()).toHaveLength(1);
    expect((await manager.streams.info(names.timersStream)).state.messages).toBe(0);

    expect(await runtime.rebuildPending()).toBe(1);
    expect((await manager.streams.info(names.timersStream)).state.messages).toBe(1);
    // Set again under the same signed id: a second rebuild keeps one timer.
    expect(await runtime.rebuildPending()).toBe(1);
    expect((await manager.streams.info(names.timersStream)).state.messages).toBe(1);

    const workerRuntime = runtimeOn(natsBus({ servers: inject('natsUrl'), prefix }));
    const worker = createWorker({ runtime: workerRuntime, agents: [define(workerRuntime)], queue: 'expiring' });
    closers.push(() => worker.stop());
    await worker.ready;
    const eventNames = async () => (await runtime.bus.events(paused.generationId)).map((event) => event.event);
    await expect.poll(async () => (await eventNames()).at(-1), { timeout: 15_000 }).toBe('completed');
    expect(await eventNames()).toContain('input_expired');
    expect(await runtime.pending()).toEqual([]);
  });
});
