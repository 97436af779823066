import { createWorker, natsBus, natsNames } from '@interlude/bus';
import { uniqueId } from '@interlude/bus/testing';
import { createRuntime, type GenerationEvent, type Runtime } from '@interlude/core';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { defineTrustDesk, type Refund } from '../support/trust-desk.js';

/** One deployment: its own prefix and key, a runtime, a worker, and everything it saw. */
interface Deployment {
  prefix: string;
  runtime: Runtime;
  refunds: Refund[];
  events: GenerationEvent[];
  reported: unknown[];
  desk: ReturnType<typeof defineTrustDesk>;
}

const closers: (() => Promise<unknown>)[] = [];
let tap: NatsConnection;
const subjects: string[] = [];

beforeAll(async () => {
  tap = await connect({ servers: inject('natsUrl') });
  tap.subscribe('>', {
    callback: (_error, message) => {
      subjects.push(message.subject);
    },
  });
  await tap.flush();
});
afterAll(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await tap.close();
});

async function deployment(prefix: string, key: string): Promise<Deployment> {
  const reported: unknown[] = [];
  const bus = natsBus({ servers: inject('natsUrl'), prefix, onError: (error) => reported.push(error) });
  const runtime = createRuntime({ bus, checkpointKey: key });
  closers.push(() => runtime.close());
  const refunds: Refund[] = [];
  const desk = defineTrustDesk(runtime, refunds);
  const events: GenerationEvent[] = [];
  const subscription = await bus.subscribe({}, (event) => {
    events.push(event);
  });
  closers.push(() => subscription.unsubscribe());
  // The same agent and the default queue in both: only the prefix keeps them apart.
  const worker = createWorker({ runtime, agents: [desk] });
  closers.push(() => worker.stop());
  await worker.ready;
  return { prefix, runtime, refunds, events, reported, desk };
}

describe('two deployments on one nats-server, each under its own prefix', () => {
  it('neither sees nor takes the other one’s jobs, events or pending questions', async () => {
    const run = `ns${uniqueId('').slice(-10)}`;
    const a = await deployment(`${run}_a`, 'deployment-a-checkpoint-key-0001');
    const b = await deployment(`${run}_b`, 'deployment-b-checkpoint-key-0002');

    const started = {
      a: await a.desk.refund({ account: 'alice' }).generateLater(),
      b: await b.desk.refund({ account: 'bob' }).generateLater(),
    };
    const listed = async (side: Deployment) => (await side.runtime.pending()).map((entry) => entry.generationId);
    await expect.poll(() => listed(a), { timeout: 15_000 }).toEqual([started.a.generationId]);
    await expect.poll(() => listed(b), { timeout: 15_000 }).toEqual([started.b.generationId]);

    await a.runtime.answerLater(started.a.generationId, { call_refund: true });
    await b.runtime.answerLater(started.b.generationId, { call_refund: true });
    const completed = (side: Deployment) => side.events.filter((event) => event.event === 'completed').length;
    await expect.poll(() => completed(a), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => completed(b), { timeout: 15_000 }).toBe(1);

    // Each ran its own refund, once; each heard only its own generation.
    expect(a.refunds.map(({ account }) => account)).toEqual(['alice']);
    expect(b.refunds.map(({ account }) => account)).toEqual(['bob']);
    expect(new Set(a.events.map((event) => event.generation_id))).toEqual(new Set([started.a.generationId]));
    expect(new Set(b.events.map((event) => event.generation_id))).toEqual(new Set([started.b.generationId]));
    // Nothing of the other's reached either: no refused job, event or record was reported.
    expect(a.reported).toEqual([]);
    expect(b.reported).toEqual([]);
    expect(await a.runtime.bus.jobs.deadLetters('agents')).toEqual([]);
    expect(await b.runtime.bus.jobs.deadLetters('agents')).toEqual([]);
    // And on the wire, every subject that names a generation is under its deployment's prefix.
    for (const [side, generationId] of [
      [a, started.a.generationId],
      [b, started.b.generationId],
    ] as const) {
      const names = natsNames(side.prefix);
      const own = subjects.filter((subject) => subject.includes(generationId) && !subject.startsWith('_INBOX'));
      expect(own.length).toBeGreaterThan(0);
      expect(
        own.filter(
          (subject) =>
            !subject.startsWith(`${side.prefix}.`) &&
            !subject.startsWith(`$KV.${names.checkpointBucket}.`) &&
            !subject.startsWith(`$KV.${names.pendingBucket}.`) &&
            !subject.includes(`.${names.checkpointStream}.`) &&
            !subject.includes(`.${names.pendingStream}.`) &&
            !subject.includes(`.${names.claimsStream}.`) &&
            !subject.includes(`.${names.eventsStream}.`),
        ),
      ).toEqual([]);
    }
  });
});
