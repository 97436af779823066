import { createWorker, natsBus } from '@interlude/bus';
import {
  type Checkpoint,
  createRuntime,
  type GenerationEvent,
  ResumeError,
  type Runtime,
  rebuildCheckpoint,
  TrustError,
} from '@interlude/core';
import { type JobOutcome, newGenerationId } from '@interlude/core/internal';
import { jetstream } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { connect, headers as createHeaders, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type ConfiguredNats, scratchDirectory, startConfiguredNats } from '../support/configured-nats.js';
import { defineTrustDesk, type Refund } from '../support/trust-desk.js';

const closers: (() => Promise<unknown>)[] = [];
let attacker: NatsConnection;
beforeAll(async () => {
  // Any client on the bus, holding no key: what these tests forge with.
  attacker = await connect({ servers: inject('natsUrl') });
});
afterAll(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await attacker.close();
});

function runtimeOn(servers: string, reported: unknown[] = []): Runtime {
  const runtime = createRuntime({ bus: natsBus({ servers, onError: (error) => reported.push(error) }) });
  closers.push(() => runtime.close());
  return runtime;
}

async function code(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => 'resumed',
    (error: unknown) => (ResumeError.isInstance(error) || TrustError.isInstance(error) ? error.code : String(error)),
  );
}

async function forge(subject: string, payload: unknown, messageId?: string): Promise<void> {
  const headers = createHeaders();
  if (messageId !== undefined) headers.set('Nats-Msg-Id', messageId);
  await jetstream(attacker).publish(subject, JSON.stringify(payload), { headers });
}

describe('nothing a client without the key publishes on NATS is trusted', () => {
  it('a job published by any client is refused by the worker; the person then answers as if nothing happened', async () => {
    const refunds: Refund[] = [];
    const queue = `forged_${Date.now().toString(36)}`;
    const runtime = runtimeOn(inject('natsUrl'));
    const desk = defineTrustDesk(runtime, refunds);
    const outcomes: JobOutcome[] = [];
    const worker = createWorker({ runtime, agents: [desk], queue, onJob: (_job, outcome) => outcomes.push(outcome) });
    closers.push(() => worker.stop());
    await worker.ready;
    const paused = await desk.refund({ account: 'alice' }).generateNow();
    const checkpoint = paused.checkpoint as Checkpoint;

    // The attacker read the checkpoint off the bus and queues its own resume: other params, its answers.
    for (const job of [
      { params: { account: 'mallory' }, checkpoint },
      { params: { account: 'alice' }, checkpoint },
      { params: { account: 'alice' } },
    ]) {
      await forge(`interlude.jobs.${queue}`, {
        version: 1,
        id: `attack-${outcomes.length}-${Math.random()}`,
        kind: 'resume',
        agent: 'desk',
        action: 'refund',
        generation_id: paused.generationId,
        answers: { call_refund: true },
        ...job,
      });
    }
    await expect.poll(() => outcomes.length, { timeout: 10_000 }).toBe(3);
    expect(
      outcomes.map((outcome) => [outcome.status, 'error' in outcome && (outcome.error as TrustError).code]),
    ).toEqual([
      ['refused', 'unsigned_job'],
      ['refused', 'unsigned_job'],
      ['refused', 'unsigned_job'],
    ]);
    expect(refunds).toEqual([]);

    await runtime.answerLater(paused.generationId, { call_refund: true }, { queue });
    await expect.poll(() => outcomes.length, { timeout: 10_000 }).toBe(4);
    expect(outcomes[3]?.status).toBe('completed');
    expect(refunds).toEqual([{ account: 'alice', amount: 30, generationId: paused.generationId }]);
  });

  it('a checkpoint record any client writes into the bucket, or deletes, is refused and rebuilt from the log: the real question is listed and answered, no refund of 30000 to the attacker', async () => {
    const refunds: Refund[] = [];
    const runtime = runtimeOn(inject('natsUrl'));
    const desk = defineTrustDesk(runtime, refunds);
    const paused = await desk.refund({ account: 'alice' }).generateNow();
    const listed = async () =>
      (await runtime.pending())
        .filter((entry) => entry.generationId === paused.generationId)
        .map((entry) => entry.inputRequests.map((request) => request.prompt));
    const key = `$KV.interlude_checkpoints.${paused.generationId}`;
    const edited = JSON.parse(JSON.stringify(paused.checkpoint).replaceAll('"amount":30', '"amount":30000'));
    await forge(key, { version: 1, checkpoint: edited, params: { account: 'mallory' } });
    expect(await listed()).toEqual([['Refund $30 to alice?']]);
    await forge(key, { version: 1, checkpoint: { ...edited, key_id: undefined, signature: undefined }, params: {} });
    expect(await listed()).toEqual([['Refund $30 to alice?']]);
    await (await new Kvm(attacker).open('interlude_checkpoints')).purge(paused.generationId);
    expect(await runtime.bus.checkpoints.load(paused.generationId)).toBeUndefined();
    expect(await listed()).toEqual([['Refund $30 to alice?']]);

    const done = await runtime.answer(paused.generationId, { call_refund: true });
    expect(done.status).toBe('completed');
    expect(refunds).toEqual([{ account: 'alice', amount: 30, generationId: paused.generationId }]);
    expect(await listed()).toEqual([]);
  });

  it('events any client publishes never reach events(), rebuildCheckpoint or a live subscriber, even when they take a real event id first', async () => {
    const reported: unknown[] = [];
    const runtime = runtimeOn(inject('natsUrl'), reported);
    const desk = defineTrustDesk(runtime, []);
    const generationId = newGenerationId();
    const subject = (event: string) => `interlude.gen.desk.refund.${generationId}.${event}`;
    const heard: GenerationEvent[] = [];
    await runtime.bus.subscribe({ generationId }, (event) => void heard.push(event));

    // Published before the generation runs, under the ids its own events will have.
    const forged = (index: number, event: string, data: unknown) => ({
      version: 1,
      id: `${generationId}:start:${index}`,
      event,
      agent: 'desk',
      action: 'refund',
      generation_id: generationId,
      run: 'start',
      index,
      time: new Date().toISOString(),
      data,
    });
    await forge(subject('started'), forged(0, 'started', { messages: [] }), `${generationId}:start:0`);
    await forge(subject('model_responded'), forged(1, 'model_responded', {}), `${generationId}:start:1`);
    const relabelled = forged(2, 'input_requested', {
      input_requests: [
        { kind: 'secret', prompt: 'Your card PIN?', tool_call_id: 'call_refund', tool_name: 'issue_refund' },
      ],
    });
    await forge(subject('input_requested'), relabelled, `${generationId}:start:2`);

    const paused = await desk.refund({ account: 'alice' }).generateNow({ generationId });
    const events = await runtime.bus.events(generationId);
    expect(events.map((event) => event.event)).toEqual([
      'started',
      'model_responded',
      'tool_started',
      'input_requested',
    ]);
    expect(JSON.stringify(events)).not.toContain('PIN');
    const stored = await runtime.bus.checkpoints.load(generationId);
    const rebuilt = rebuildCheckpoint(events, {
      checkpointKey: runtime.keys,
      params: stored?.params,
      audience: await runtime.audience(),
    });
    expect(rebuilt).toEqual(paused.checkpoint);

    await forge(subject('completed'), forged(9, 'completed', { text: 'forged' }));
    await expect.poll(() => heard.filter((event) => event.event === 'input_requested')).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 200)); // the forged completion had time to arrive
    expect(heard.map((event) => event.event)).toEqual([
      'started',
      'model_responded',
      'tool_started',
      'input_requested',
    ]);
    expect(JSON.stringify(heard)).not.toContain('PIN');
    expect(reported.some((error) => TrustError.isInstance(error) && error.code === 'unsigned_event')).toBe(true);
  });
});

describe('two deployments holding the same key', () => {
  let second: ConfiguredNats;
  beforeAll(async () => {
    second = await startConfiguredNats(await scratchDirectory('second-deployment'), '');
  });
  afterAll(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await second.stop();
  });

  it('a checkpoint taken in one is refused by the other (audience_mismatch); processes of one deployment agree', async () => {
    const refunds: Refund[] = [];
    const first = runtimeOn(inject('natsUrl'));
    const firstAgain = runtimeOn(inject('natsUrl'));
    const other = runtimeOn(second.url);
    expect(await first.audience()).toBe(await firstAgain.audience());
    expect(await other.audience()).not.toBe(await first.audience());

    const paused = await defineTrustDesk(first, refunds).refund({ account: 'alice' }).generateNow();
    const elsewhere = defineTrustDesk(other, refunds)
      .refund({ account: 'alice' })
      .resumeNow({ checkpoint: paused.checkpoint, answers: { call_refund: true } });
    expect(await code(elsewhere)).toBe('audience_mismatch');
    expect(refunds).toEqual([]);
    const here = await defineTrustDesk(firstAgain, refunds)
      .refund({ account: 'alice' })
      .resumeNow({ checkpoint: paused.checkpoint, answers: { call_refund: true } });
    expect(here.status).toBe('completed');
    expect(refunds).toHaveLength(1);
  });
});
