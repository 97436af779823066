import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { aesGcmCodec, createWorker, natsBus } from '@interlude/bus';
import { createRuntime, type GenerationEvent, type Runtime } from '@interlude/core';
import { newGenerationId } from '@interlude/core/internal';
import { jetstream } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { connect, headers as createHeaders, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchDirectory } from '../support/configured-nats.js';
import { type StartedNatsServer, startNatsServer } from '../support/global-setup.js';
import { defineGoAheadAgent } from '../support/go-ahead-agent.js';
import { defineTrustDesk, type Refund } from '../support/trust-desk.js';

/**
 * Records read from NATS are believed only where they are bound to the place they were read from
 * and carry the log's authority (issue 27): a nats-server of this file's own, and a client that
 * holds no key (neither the checkpoint key nor the payload key) writing with plain nats.js.
 */
let server: StartedNatsServer;
let directory: string;
let attacker: NatsConnection;
const closers: (() => Promise<unknown>)[] = [];
const checkpointKey = 'record-binding-checkpoint-key-0123456789';
const payloadKey = randomBytes(32).toString('base64');

beforeAll(async () => {
  directory = await scratchDirectory('record-binding');
  server = await startNatsServer(directory);
  attacker = await connect({ servers: server.url });
});
afterAll(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await attacker.close();
  const gone = new Promise((resolve) => server.process.once('exit', resolve));
  server.process.kill('SIGTERM');
  await gone;
  await rm(directory, { recursive: true, force: true });
});

/**
 * A runtime of the one deployment this server holds: every process has both keys. Without the
 * codec, a deployment of its own (under `prefix`) on the same server.
 */
function runtimeOn(options: { codec?: boolean; prefix?: string } = {}): Runtime {
  const runtime = createRuntime({
    bus: natsBus({
      servers: server.url,
      ...(options.codec !== false && { codec: aesGcmCodec({ keys: payloadKey }) }),
      ...(options.prefix !== undefined && { prefix: options.prefix }),
      onError: () => undefined,
    }),
    checkpointKey,
  });
  closers.push(() => runtime.close());
  return runtime;
}

describe('a keyless client writing to the pending index relabels nothing (codec on)', () => {
  it('pending() shows the signed checkpoint’s question, and nothing for a generation that never paused', async () => {
    const refunds: Refund[] = [];
    const runtime = runtimeOn();
    const desk = defineTrustDesk(runtime, refunds);
    const paused = await desk.refund({ account: 'mallory-offshore' }).generateNow();
    expect((await runtime.pending()).map((pause) => pause.inputRequests[0]?.prompt)).toContain(
      'Refund $30 to mallory-offshore?',
    );

    // The attacker reads the record's readable fields and writes its own questions in plain JSON.
    const bucket = await new Kvm(attacker).open('interlude_pending');
    const real = JSON.parse(new TextDecoder().decode((await bucket.get(paused.generationId))?.value));
    const coupon = [
      {
        kind: 'confirm',
        prompt: 'Send the customer a $1 goodwill coupon?',
        tool_call_id: 'call_refund',
        tool_name: 'issue_refund',
        arguments: { amount: 1 },
      },
    ];
    await bucket.put(paused.generationId, JSON.stringify({ ...real, input_requests: coupon }));
    await bucket.put(
      'gen_never_paused',
      JSON.stringify({ ...real, generation_id: 'gen_never_paused', input_requests: coupon }),
    );

    const listed = (await runtime.pending()).filter((pause) =>
      [paused.generationId, 'gen_never_paused'].includes(pause.generationId),
    );
    expect(listed.map((pause) => [pause.generationId, pause.inputRequests.map((request) => request.prompt)])).toEqual([
      [paused.generationId, ['Refund $30 to mallory-offshore?']],
    ]);
  });
});

describe('a keyless client writing to, or deleting from, the pending index hides nothing and lists nothing twice', () => {
  it.each([
    { codec: true, bucket: 'interlude_pending', prefix: undefined },
    { codec: false, bucket: 'plainidx_interlude_pending', prefix: 'plainidx' },
  ])(
    'codec $codec: a record under another key, an overwritten audience, a deleted entry',
    async ({ codec, bucket, prefix }) => {
      const runtime = runtimeOn({ codec, ...(prefix !== undefined && { prefix }) });
      const desk = defineTrustDesk(runtime, []);
      const moved = await desk.refund({ account: 'dave' }).generateNow();
      const relabelled = await desk.refund({ account: 'erin' }).generateNow();
      const deleted = await desk.refund({ account: 'frank' }).generateNow();
      const purged = await desk.refund({ account: 'grace' }).generateNow();
      const ours = [moved, relabelled, deleted, purged].map((paused) => paused.generationId);
      const listed = async (filter?: { agent: string }) =>
        (await runtime.pending(filter)).map((pause) => pause.generationId).filter((id) => ours.includes(id));
      expect((await listed()).sort()).toEqual([...ours].sort());

      const index = await new Kvm(attacker).open(bucket);
      const read = async (id: string) => JSON.parse(new TextDecoder().decode((await index.get(id))?.value));
      // Under two other keys, bodies naming a real waiting generation; a real record made another deployment's.
      await index.put('gen_copy_one', JSON.stringify(await read(moved.generationId)));
      await index.put(
        'gen_copy_two',
        JSON.stringify({ ...(await read(moved.generationId)), asked_at: '2000-01-01T00:00:00Z' }),
      );
      await index.put(
        relabelled.generationId,
        JSON.stringify({
          ...(await read(relabelled.generationId)),
          audience: 'elsewhere',
          agent: 'other',
          action: 'other',
        }),
      );
      await index.delete(deleted.generationId);
      await index.purge(purged.generationId);

      expect((await listed()).sort()).toEqual([...ours].sort());
      expect((await listed({ agent: 'desk' })).sort()).toEqual([...ours].sort());
      expect(await listed({ agent: 'other' })).toEqual([]);
      // Each is answered as its own, once.
      const refunds: Refund[] = [];
      defineTrustDesk(runtime, refunds);
      for (const id of ours) await runtime.answer(id, { call_refund: true });
      expect(refunds.map((refund) => refund.account).sort()).toEqual(['dave', 'erin', 'frank', 'grace']);
      expect(await listed()).toEqual([]);
    },
  );
});

describe('an event is believed only on its own generation’s subject', () => {
  it('a signed event of A copied byte for byte onto B’s subject is in neither B’s log nor B’s live events', async () => {
    const runtime = runtimeOn();
    const desk = defineTrustDesk(runtime, []);
    const a = await desk.refund({ account: 'alice' }).generateNow();
    const b = await desk.refund({ account: 'bob' }).generateNow();
    const heard: GenerationEvent[] = [];
    const subscription = await runtime.bus.subscribe({ generationId: b.generationId }, (event) => {
      heard.push(event);
    });
    closers.push(() => subscription.unsubscribe());

    // The attacker copies A's stored, genuinely signed `input_requested` (bytes and signature) onto B's subject.
    const manager = await jetstream(attacker).jetstreamManager();
    const stored = await manager.streams.getMessage('INTERLUDE_EVENTS', {
      last_by_subj: `interlude.gen.desk.refund.${a.generationId}.input_requested`,
    });
    const headers = createHeaders();
    headers.set('Interlude-Signature', stored?.header.get('Interlude-Signature') ?? '');
    await jetstream(attacker).publish(`interlude.gen.desk.refund.${b.generationId}.input_requested`, stored?.data, {
      headers,
    });
    await attacker.flush();

    const events = await runtime.bus.events(b.generationId);
    expect(events.every((event) => event.generation_id === b.generationId)).toBe(true);
    expect(events.some((event) => event.id.startsWith(`${a.generationId}:`))).toBe(false);
    // Published after the copy on the same connection order: once it is heard, the copy was heard or dropped.
    await runtime.cancel(b.generationId, 'done with the test');
    await expect.poll(() => heard.some((event) => event.event === 'cancelled'), { timeout: 10_000 }).toBe(true);
    expect(heard.every((event) => event.generation_id === b.generationId)).toBe(true);
  });
});

describe('pending() is exact: listed from the pause until its answer is claimed', () => {
  it('a first pause (claim slot 0) is not listed while its answer runs', async () => {
    const runtime = runtimeOn();
    let listedDuringAnswer: string[] | undefined;
    const refunds: Refund[] = [];
    const desk = defineTrustDesk(runtime, refunds, async () => {
      listedDuringAnswer = (await runtime.pending()).map((pause) => pause.generationId);
    });
    const paused = await desk.refund({ account: 'carol' }).generateNow();
    expect((await runtime.pending()).map((pause) => pause.generationId)).toContain(paused.generationId);
    await runtime.answer(paused.generationId, { call_refund: true });
    expect(refunds).toHaveLength(1);
    expect(listedDuringAnswer).toBeDefined();
    expect(listedDuringAnswer).not.toContain(paused.generationId);
    expect((await runtime.pending()).map((pause) => pause.generationId)).not.toContain(paused.generationId);
  });
});

describe('a deadline timer a keyless client published first', () => {
  it('keeps out neither the real timer nor the expiry: the question expires on time, the forged timer is dropped', async () => {
    const runtime = runtimeOn();
    const errors: unknown[] = [];
    const workerRuntime = createRuntime({
      bus: natsBus({
        servers: server.url,
        codec: aesGcmCodec({ keys: payloadKey }),
        onError: (error) => errors.push(error),
      }),
      checkpointKey,
    });
    closers.push(() => workerRuntime.close());
    const ran: unknown[] = [];
    const define = (on: Runtime) =>
      defineGoAheadAgent(on, { name: 'expiring', expiresIn: 700, onRun: (answer) => void ran.push(answer) });
    const agent = define(runtime);
    const worker = createWorker({ runtime: workerRuntime, agents: [define(workerRuntime)], queue: 'expiring_jobs' });
    closers.push(() => worker.stop());
    await worker.ready;

    // The generation id is the caller's to choose, so a keyless client can know it before the pause.
    const generationId = newGenerationId();
    const headers = createHeaders();
    headers.set('Nats-Msg-Id', `${generationId}:0`);
    const forged = { version: 1, generation_id: generationId, agent: 'expiring', action: 'handle', claim_slot: 0 };
    await jetstream(attacker).publish(
      `interlude.timers.expiring.${generationId}`,
      JSON.stringify({ ...forged, due_at: new Date().toISOString() }),
      { headers },
    );

    const paused = await agent.handle({}).generateNow({ generationId });
    expect(paused.status).toBe('awaiting_input');
    const names = async () => (await runtime.bus.events(generationId)).map((event) => event.event);
    await expect.poll(async () => (await names()).at(-1), { timeout: 15_000 }).toBe('completed');
    expect(await names()).toContain('input_expired');
    expect(ran).toEqual([]);
    expect(errors.some((error) => (error as { code?: string }).code === 'unsigned_timer')).toBe(true);
  });
});
