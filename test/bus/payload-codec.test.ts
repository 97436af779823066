import { randomBytes } from 'node:crypto';
import { aesGcmCodec, type NatsBusOptions, natsBus, PayloadCodecError } from '@interlude/bus';
import { sampleCheckpoint, sampleClaim, sampleEvent, sampleJob, uniqueId } from '@interlude/bus/testing';
import { type Bus, type Checkpoint, createRuntime, type GenerationEvent } from '@interlude/core';
import { createCheckpointKeys, type Job, PayloadTooLargeError } from '@interlude/core/internal';
import { secretFormsIn } from '@interlude/core/testing';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { rawLastStored, rawStored } from '../support/bus-raw-log.js';
import { defineTrustDesk } from '../support/trust-desk.js';

const buses: Bus[] = [];
afterEach(async () => {
  await Promise.all(buses.splice(0).map((bus) => bus.close()));
});

function busWith(options: Partial<NatsBusOptions> = {}): Bus {
  const bus = natsBus({ servers: inject('natsUrl'), onError: () => undefined, ...options });
  buses.push(bus);
  return bus;
}

const newKey = () => randomBytes(32).toString('base64');

/** Text a person, a tool or a model wrote: what a raw reader of a sealed store must not find. */
const words = {
  result: 'Refund of 30 dollars issued to Ada Lovelace',
  answer: 'Yes, refund the broken kettle',
  message: 'My kettle arrived cracked down the side',
  question: 'Refund the cracked kettle to Ada?',
  failure: 'The payment gateway said card expired',
};

/** Everything a generation stores, each part holding one of `words`. */
function generationRecords(generationId: string) {
  const checkpoint: Checkpoint = {
    ...sampleCheckpoint(generationId),
    messages: [{ role: 'user', content: words.message }],
    input_requests: [{ kind: 'confirm', prompt: words.question, tool_call_id: 'call_1', tool_name: 'refund' }],
  };
  const events: GenerationEvent[] = [
    { ...sampleEvent(generationId, 0, 'started'), event: 'started', data: startedData(words.message) },
    {
      ...sampleEvent(generationId, 1, 'tool_completed'),
      event: 'tool_completed',
      data: { tool_call_id: 'call_0', tool_name: 'lookup', result: words.result, is_error: false },
    },
    {
      ...sampleEvent(generationId, 2, 'completed'),
      event: 'completed',
      data: { text: words.result, finish_reason: 'stop' },
    },
  ];
  const job = sampleJob({
    generation_id: generationId,
    params: { note: words.message },
    answers: { call_1: words.answer },
    checkpoint,
  });
  const paused = sampleClaim('holder-1', { kind: 'paused', checkpoint });
  const failed = sampleClaim('holder-1', { kind: 'finished', error: { name: 'Error', message: words.failure } });
  return { checkpoint, events, job, paused, failed };
}

function startedData(message: string) {
  return {
    service: 'scripted',
    provider: 'scripted',
    model: 'm',
    action_name: 'handle',
    messages: [{ role: 'user', content: message }],
    params: null,
  };
}

/** Which of `words` a text holds, in any form (escaped, encoded, base64 at any offset…). */
function wordsIn(text: string): string[] {
  return Object.entries(words)
    .filter(([, value]) => secretFormsIn(text, value).length > 0)
    .map(([name]) => name);
}

async function rejection(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => 'resolved',
    (error: unknown) => (PayloadCodecError.isInstance(error) ? error.code : String(error)),
  );
}

/** Writes every kind of record once, the job dead-lettered by a handler that refuses it. */
async function writeEverything(bus: Bus, generationId: string, queue: string) {
  const records = generationRecords(generationId);
  for (const event of records.events) await bus.publish(event);
  await bus.checkpoints.save(generationId, { checkpoint: records.checkpoint, params: { note: words.message } });
  await bus.claims.write(generationId, 0, records.paused);
  await bus.claims.write(generationId, 1, records.failed);
  await bus.jobs.enqueue(queue, records.job);
  return records;
}

async function deadLetter(bus: Bus, queue: string): Promise<Job[]> {
  const handled: Job[] = [];
  const consumer = await bus.jobs.consume(
    queue,
    async (job) => {
      handled.push(job);
      return { verdict: 'refuse', reason: { code: 'refused_by_test', message: words.failure } };
    },
    { concurrency: 1 },
  );
  await expect.poll(async () => (await bus.jobs.deadLetters(queue)).length, { timeout: 10_000 }).toBe(1);
  await consumer.stop();
  return handled;
}

describe('natsBus({ codec }): payloads sealed at rest', () => {
  it('a raw reader of the event log, the job queue, the claim log, the dead letters and the checkpoint bucket finds no result, answer, message, question or error text; the bus reads all of it back', async () => {
    const bus = busWith({ codec: aesGcmCodec({ keys: [newKey()] }) });
    const servers = inject('natsUrl');
    const generationId = uniqueId('gen');
    const queue = uniqueId('queue');
    const records = await writeEverything(bus, generationId, queue);
    // Read before a consumer takes it: a work queue drops a job once it is acknowledged.
    const rawJob = (await rawLastStored(servers, 'INTERLUDE_JOBS', `interlude.jobs.${queue}`)) ?? '';
    const handled = await deadLetter(bus, queue);

    const raw = {
      events: await rawStored(servers, 'INTERLUDE_EVENTS', `interlude.gen.*.*.${generationId}.*`),
      jobs: [rawJob],
      claims: await rawStored(servers, 'INTERLUDE_CLAIMS', `interlude.claims.${generationId}.>`),
      dead: await rawStored(servers, 'INTERLUDE_DEAD', `interlude.dead.${queue}`),
      checkpoints: [
        (await rawLastStored(servers, 'KV_interlude_checkpoints', `$KV.interlude_checkpoints.${generationId}`)) ?? '',
      ],
    };
    for (const [store, texts] of Object.entries(raw)) {
      expect(texts.length, store).toBeGreaterThan(0);
      expect(wordsIn(texts.join('\n')), store).toEqual([]);
      expect(texts.join('\n'), store).toContain('"sealed":"aes-256-gcm"');
    }
    // What routes and identifies stays readable: event types, ids, names, kinds, codes.
    const stored = raw.events.map((text) => JSON.parse(text) as GenerationEvent);
    expect(stored.map(({ data: _data, ...readable }) => readable)).toEqual(
      records.events.map(({ data: _data, ...readable }) => readable),
    );
    expect(raw.claims.map((text) => JSON.parse(text).kind)).toEqual(['paused', 'finished']);
    expect(JSON.parse(raw.dead[0] as string).reason.code).toBe('refused_by_test');
    expect(JSON.parse(rawJob)).toMatchObject({ id: records.job.id, kind: 'resume', generation_id: generationId });

    // …and the bus, holding the key, reads every record as it was written.
    expect(await bus.events(generationId)).toEqual(records.events);
    expect(await bus.checkpoints.load(generationId)).toMatchObject({
      checkpoint: records.checkpoint,
      params: { note: words.message },
    });
    expect(await bus.claims.read(generationId, 0)).toEqual(records.paused);
    expect(await bus.claims.read(generationId, 1)).toEqual(records.failed);
    expect(handled).toEqual([records.job]);
    expect(await bus.jobs.deadLetters(queue)).toMatchObject([
      { reason: { code: 'refused_by_test', message: words.failure }, job: records.job },
    ]);
  });

  it('a plain subscriber still sees every event type and id but no data; a bus subscriber with the key sees the data', async () => {
    const bus = busWith({ codec: aesGcmCodec({ keys: [newKey()] }) });
    const generationId = uniqueId('gen');
    const listener = await connect({ servers: inject('natsUrl') });
    const plain: string[] = [];
    listener.subscribe(`interlude.gen.*.*.${generationId}.*`, {
      callback: (_error, message) => void plain.push(message.string()),
    });
    await listener.flush();
    const heard: GenerationEvent[] = [];
    const subscription = await bus.subscribe({ generationId }, (event) => void heard.push(event));
    const { events } = generationRecords(generationId);
    for (const event of events) await bus.publish(event);

    await expect.poll(() => heard.length).toBe(events.length);
    await expect.poll(() => plain.length).toBe(events.length);
    expect(heard).toEqual(events);
    const seen = plain.map((text) => JSON.parse(text) as GenerationEvent);
    expect(seen.map((event) => [event.event, event.id, event.agent, event.action, event.generation_id])).toEqual(
      events.map((event) => [event.event, event.id, event.agent, event.action, event.generation_id]),
    );
    expect(wordsIn(plain.join('\n'))).toEqual([]);
    await subscription.unsubscribe();
    await listener.close();
  });

  it('rotates: a bus given a new key first reads what the old key sealed, and seals with the new one; a bus without the old key refuses it with unknown_payload_key', async () => {
    const oldKey = newKey();
    const freshKey = newKey();
    const before = busWith({ codec: aesGcmCodec({ keys: [oldKey] }) });
    const generationId = uniqueId('gen');
    const queue = uniqueId('queue');
    const records = await writeEverything(before, generationId, queue);
    await deadLetter(before, queue);

    const rotated = busWith({ codec: aesGcmCodec({ keys: [freshKey, oldKey] }) });
    expect(await rotated.events(generationId)).toEqual(records.events);
    expect((await rotated.checkpoints.load(generationId))?.checkpoint).toEqual(records.checkpoint);
    expect(await rotated.claims.read(generationId, 0)).toEqual(records.paused);
    expect((await rotated.jobs.deadLetters(queue))[0]?.job).toEqual(records.job);

    // What the rotated bus writes names the new key, beside records of the old one in the same log.
    const later: GenerationEvent = {
      ...sampleEvent(generationId, 3, 'completed'),
      event: 'completed',
      data: { text: words.result, finish_reason: 'stop' },
    };
    await rotated.publish(later);
    const keyIds = (await rawStored(inject('natsUrl'), 'INTERLUDE_EVENTS', `interlude.gen.*.*.${generationId}.*`)).map(
      (text) => JSON.parse(text).data.key_id,
    );
    const [oldId, freshId] = [oldKey, freshKey].map(
      (key) => aesGcmCodec({ keys: [key] }).seal(new Uint8Array(0), 'x').key_id,
    );
    expect(keyIds).toEqual([oldId, oldId, oldId, freshId]);
    expect(await rotated.events(generationId)).toEqual([...records.events, later]);

    const dropped = busWith({ codec: aesGcmCodec({ keys: [freshKey] }) });
    expect(await rejection(dropped.events(generationId))).toBe('unknown_payload_key');
    expect(await rejection(dropped.checkpoints.load(generationId))).toBe('unknown_payload_key');
    expect(await rejection(dropped.claims.read(generationId, 0))).toBe('unknown_payload_key');
    expect(await rejection(dropped.jobs.deadLetters(queue))).toBe('unknown_payload_key');
    await expect(dropped.events(generationId)).rejects.toThrow(oldId as string);
  });

  it('a wrong key or no codec is a clear error, never a silent drop: reads reject, a subscriber hears it on onError, a job is dead-lettered still sealed and opens with the right key', async () => {
    const key = newKey();
    const right = busWith({ codec: aesGcmCodec({ keys: [key] }) });
    const reports: unknown[] = [];
    const wrong = busWith({
      codec: aesGcmCodec({ keys: [newKey()] }),
      jobMaxDeliver: 2,
      onError: (error) => reports.push(error),
    });
    const none = busWith({ codec: false });
    const generationId = uniqueId('gen');
    const queue = uniqueId('queue');
    const heard: GenerationEvent[] = [];
    const subscription = await wrong.subscribe({ generationId }, (event) => void heard.push(event));
    const records = await writeEverything(right, generationId, queue);

    expect(await rejection(wrong.events(generationId))).toBe('unknown_payload_key');
    expect(await rejection(none.events(generationId))).toBe('missing_payload_key');
    expect(await rejection(none.checkpoints.load(generationId))).toBe('missing_payload_key');
    expect(await rejection(none.claims.read(generationId, 0))).toBe('missing_payload_key');
    await expect
      .poll(() => reports.filter((error) => PayloadCodecError.isInstance(error)).length)
      .toBeGreaterThanOrEqual(records.events.length);
    expect(heard).toEqual([]);
    await subscription.unsubscribe();

    // A worker without the key never hands its handler a sealed job: it is tried again (another
    // worker may hold the key), then dead-lettered with the codec's code, sealed as it came.
    const handled: Job[] = [];
    const consumer = await wrong.jobs.consume(queue, async (job) => void handled.push(job), { concurrency: 1 });
    await expect.poll(async () => (await right.jobs.deadLetters(queue)).length, { timeout: 15_000 }).toBe(1);
    await consumer.stop();
    expect(handled).toEqual([]);
    const [letter] = await right.jobs.deadLetters(queue);
    expect(letter?.reason.code).toBe('unknown_payload_key');
    expect(letter?.attempt).toBe(2);
    expect(letter?.job).toEqual(records.job);
    const rawLetter = await rawStored(inject('natsUrl'), 'INTERLUDE_DEAD', `interlude.dead.${queue}`);
    expect(wordsIn(rawLetter.join('\n'))).toEqual([]);
  });

  it('pending() lists what this process can open and leaves out, said once, a pause sealed with a key it does not hold', async () => {
    // One deployment's buckets (a prefix of its own), two payload keys: a process each.
    const prefix = uniqueId('sealed-pending').slice(0, 32);
    const [first, second] = [newKey(), newKey()].map((key) => {
      const runtime = createRuntime({ bus: busWith({ prefix, codec: aesGcmCodec({ keys: [key] }) }) });
      return { runtime, desk: defineTrustDesk(runtime, []) };
    });
    if (first === undefined || second === undefined) throw new Error('two runtimes');
    const firstPause = await first.desk.refund({ account: 'alice' }).generateNow();
    const secondPause = await second.desk.refund({ account: 'bob' }).generateNow();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const listed = async (runtime: typeof first.runtime) =>
        (await runtime.pending()).map((entry) => entry.generationId);
      expect(await listed(first.runtime)).toEqual([firstPause.generationId]);
      expect(await listed(second.runtime)).toEqual([secondPause.generationId]);
      expect(await listed(second.runtime)).toEqual([secondPause.generationId]);
      const said = warn.mock.calls.map((call) => String(call[0]));
      expect(said.filter((line) => line.includes(firstPause.generationId))).toHaveLength(1);
      expect(said.filter((line) => line.includes(secondPause.generationId))).toHaveLength(1);
      expect(said.join('\n')).toContain('unknown_payload_key');
    } finally {
      warn.mockRestore();
    }
    // Its resume is still refused with the codec's error, not passed over.
    await expect(second.runtime.answer(firstPause.generationId, { call_refund: true })).rejects.toMatchObject({
      code: 'unknown_payload_key',
    });
  });

  it('refuses what was stored plain: with a codec only sealed values are authenticated (plain_payload)', async () => {
    const plain = busWith({ codec: false });
    const generationId = uniqueId('gen');
    const queue = uniqueId('queue');
    await writeEverything(plain, generationId, queue);
    const raw = await rawStored(inject('natsUrl'), 'INTERLUDE_EVENTS', `interlude.gen.*.*.${generationId}.*`);
    expect(wordsIn(raw.join('\n'))).toContain('result'); // the text was stored readable

    const sealing = busWith({ codec: aesGcmCodec({ keys: [newKey()] }) });
    const codeOf = (promise: Promise<unknown>) =>
      promise.then(
        () => 'read',
        (error: unknown) => (PayloadCodecError.isInstance(error) ? error.code : String(error)),
      );
    expect(await codeOf(sealing.events(generationId))).toBe('plain_payload');
    expect(await codeOf(sealing.checkpoints.load(generationId))).toBe('plain_payload');
    expect(await codeOf(sealing.claims.read(generationId, 1))).toBe('plain_payload');
  });

  it('events are signed over the bytes as stored: the signature verifies without the payload key, and a signed bus without that key says missing_payload_key, not forged', async () => {
    const keys = createCheckpointKeys('payload-codec-test-signing-key');
    const sealing = busWith({ codec: aesGcmCodec({ keys: [newKey()] }) });
    const unsealing = busWith({ codec: false });
    sealing.useKeys?.(keys);
    unsealing.useKeys?.(keys);
    const generationId = uniqueId('gen');
    const { events } = generationRecords(generationId);
    for (const event of events) await sealing.publish(event);

    const connection = await connect({ servers: inject('natsUrl') });
    const manager = await jetstreamManager(connection);
    const stored = await manager.streams.getMessage('INTERLUDE_EVENTS', {
      last_by_subj: `interlude.gen.support.handle.${generationId}.completed`,
    });
    await connection.close();
    expect(stored?.json<GenerationEvent>().data).toMatchObject({ sealed: 'aes-256-gcm' });
    expect(
      keys.verifyTagged('event', stored?.data ?? new Uint8Array(0), stored?.header.get('Interlude-Signature') ?? ''),
    ).toBe('valid');
    expect(await rejection(unsealing.events(generationId))).toBe('missing_payload_key');
  });

  it('the payload limit applies to what is sent: data that fits plain but not sealed fails with payload_too_large', async () => {
    const generationId = uniqueId('gen');
    // 850 kB of text: under the server's 1 MB max_payload plain, about 1.13 MB once sealed (base64).
    const big: GenerationEvent = {
      ...sampleEvent(generationId, 0, 'completed'),
      event: 'completed',
      data: { text: 'k'.repeat(850_000), finish_reason: 'stop' },
    };
    await busWith({ codec: false }).publish(big);
    const failure = await busWith({ codec: aesGcmCodec({ keys: [newKey()] }) })
      .publish({ ...big, id: `${big.id}:sealed`, index: 1 })
      .catch((error: unknown) => error);
    expect(PayloadTooLargeError.isInstance(failure) && failure.code).toBe('payload_too_large');
    expect((failure as Error).message).toMatch(/needs 1[01]\d{5} bytes/);
  });
});
