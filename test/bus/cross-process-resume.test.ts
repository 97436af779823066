import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aesGcmCodec, natsBus, type PayloadCodec, PayloadCodecError } from '@interlude/bus';
import { uniqueId } from '@interlude/bus/testing';
import { createRuntime, type Runtime } from '@interlude/core';
import { secretFormsIn } from '@interlude/core/testing';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { type ChildScript, startScript } from '../support/bus-child-process.js';
import { rawLastStored, rawStored } from '../support/bus-raw-log.js';
import { defineRefundAgent, readSideEffects, type SideEffect } from '../support/bus-refund-agent.js';

let directory: string;
let sideEffectsFile: string;
const children: ChildScript[] = [];
const runtimes: Runtime[] = [];

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'interlude-bus-'));
  sideEffectsFile = join(directory, 'side-effects.jsonl');
});

afterEach(async () => {
  await Promise.all(children.splice(0).map((child) => child.stop('SIGKILL')));
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.close()));
  await rm(directory, { recursive: true, force: true });
});

function sideEffects(): Promise<SideEffect[]> {
  return readSideEffects(sideEffectsFile);
}

async function untilFileHasText(path: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await readFile(path, 'utf8').catch(() => '')) === '') {
    if (Date.now() > deadline) throw new Error(`${path} stayed empty for ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A worker in its own process; `extra` may hold `INTERLUDE_PAYLOAD_KEY`, as a deployment sets it. */
function worker(queue: string, extra: Record<string, string> = {}): ChildScript {
  const child = startScript('bus-worker-process.ts', {
    NATS_URL: inject('natsUrl'),
    QUEUE: queue,
    SIDE_EFFECTS_FILE: sideEffectsFile,
    ...extra,
  });
  children.push(child);
  return child;
}

/** A runtime in this process; with `codec`, it seals what it stores (`natsBus({ codec })`). */
function localRuntime(codec?: PayloadCodec) {
  const runtime = createRuntime({
    bus: natsBus({ servers: inject('natsUrl'), name: 'test-process', codec }),
  });
  runtimes.push(runtime);
  return { runtime, support: defineRefundAgent(runtime, { sideEffectsFile }) };
}

describe('pause in one process, resume in another', () => {
  it('resumes by generation id through a worker process: the refund runs once, the generation completes', async () => {
    const queue = uniqueId('queue');
    const workerProcess = worker(queue);
    const { runtime, support } = localRuntime();

    const paused = await support.generation('handle', { ticketId: 42 }).generateNow();
    expect(paused.status).toBe('awaiting_input');
    expect(paused.inputRequests.map((request) => request.toolCallId)).toEqual(['call_refund']);

    await workerProcess.waitForLine(/^ready$/);
    await runtime.answerLater(paused.generationId, { call_refund: true }, { queue });
    await workerProcess.waitForLine(new RegExp(`^job completed ${paused.generationId}$`));

    const events = await runtime.bus.events(paused.generationId);
    expect(events.at(-1)?.event).toBe('completed');
    expect(events.map((event) => event.event)).toContain('resumed');
    const effects = await sideEffects();
    expect(effects.map((effect) => [effect.tool, effect.pid])).toEqual([
      ['lookup_order', process.pid],
      ['issue_refund', workerProcess.process.pid],
    ]);
  });

  it('a worker killed with SIGKILL mid-job: another finishes it, each side effect ran once', async () => {
    const queue = uniqueId('queue');
    const stallFile = join(directory, 'stalled');
    const doomed = worker(queue, { STALL_FILE: stallFile, JOB_ACK_WAIT_MS: '1500' });
    const { runtime, support } = localRuntime();

    const paused = await support.generation('handle', { ticketId: 42 }).generateNow();
    await doomed.waitForLine(/^ready$/);
    await runtime.answerLater(paused.generationId, { call_refund: true }, { queue });

    // The doomed worker refunded, logged it, and now hangs on the model call that follows.
    await untilFileHasText(stallFile);
    await doomed.stop('SIGKILL');

    const rescuer = worker(queue, { JOB_ACK_WAIT_MS: '1500' });
    await rescuer.waitForLine(new RegExp(`^job completed ${paused.generationId}$`));

    const events = await runtime.bus.events(paused.generationId);
    expect(events.at(-1)?.event).toBe('completed');
    const refunds = events.filter((event) => event.event === 'tool_completed');
    expect(refunds.map((event) => event.data.tool_call_id)).toEqual(['call_lookup', 'call_refund']);
    const effects = await sideEffects();
    expect(effects.map((effect) => [effect.tool, effect.pid])).toEqual([
      ['lookup_order', process.pid],
      ['issue_refund', doomed.process.pid],
    ]);
  });

  it('SIGTERM drains a worker: the running job finishes and is acknowledged before the process exits', async () => {
    const queue = uniqueId('queue');
    const modelCalls = join(directory, 'model-calls');
    const draining = worker(queue, { MODEL_DELAY_MS: '600', MODEL_CALLS_FILE: modelCalls, JOB_ACK_WAIT_MS: '1000' });
    const { support } = localRuntime();
    await draining.waitForLine(/^ready$/);
    const { generationId } = await support.generation('handle', { ticketId: 7 }).generateLater({ queue });
    await untilFileHasText(modelCalls); // the job is in its first model call
    const exited = new Promise<number | null>((resolve) => draining.process.once('exit', resolve));
    draining.process.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(draining.lines).toContain(`job awaiting_input ${generationId}`);

    // Acknowledged: a worker started after the ack wait gets nothing to redo.
    const next = worker(queue, { JOB_ACK_WAIT_MS: '1000' });
    await next.waitForLine(/^ready$/);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(next.lines.filter((line) => line.startsWith('job '))).toEqual([]);
    expect((await sideEffects()).map((effect) => effect.tool)).toEqual(['lookup_order']);
  });
});

const newKey = () => randomBytes(32).toString('base64');

/** What the refund scenario's person, model and tools write, none of which a raw reader may find. */
const texts = [
  'Resolve support ticket',
  'Let me check the order.',
  '"total":120',
  'Refund $30 on order 42?',
  'I refunded $30 on order 42.',
];

describe('a payload key shared across processes', () => {
  it('pauses here and resumes in a worker process holding the same key: each side effect once, and the stored streams hold none of the texts', async () => {
    const key = newKey();
    const queue = uniqueId('queue');
    const workerProcess = worker(queue, { INTERLUDE_PAYLOAD_KEY: key });
    const { runtime, support } = localRuntime(aesGcmCodec({ keys: [key] }));

    const paused = await support.generation('handle', { ticketId: 42 }).generateNow();
    expect(paused.inputRequests.map((request) => request.prompt)).toEqual(['Refund $30 on order 42?']);
    await workerProcess.waitForLine(/^ready$/);
    await runtime.answerLater(paused.generationId, { call_refund: true }, { queue });
    const rawJob = await rawLastStored(inject('natsUrl'), 'INTERLUDE_JOBS', `interlude.jobs.${queue}`);
    await workerProcess.waitForLine(new RegExp(`^job completed ${paused.generationId}$`));

    const events = await runtime.bus.events(paused.generationId);
    expect(events.map((event) => event.event)).toContain('resumed');
    expect(events.at(-1)).toMatchObject({ event: 'completed', data: { text: 'I refunded $30 on order 42.' } });
    expect((await sideEffects()).map((effect) => [effect.tool, effect.pid])).toEqual([
      ['lookup_order', process.pid],
      ['issue_refund', workerProcess.process.pid],
    ]);

    const servers = inject('natsUrl');
    const stored = [
      ...(await rawStored(servers, 'INTERLUDE_EVENTS', `interlude.gen.*.*.${paused.generationId}.*`)),
      ...(await rawStored(servers, 'INTERLUDE_CLAIMS', `interlude.claims.${paused.generationId}.>`)),
      (await rawLastStored(servers, 'KV_interlude_checkpoints', `$KV.interlude_checkpoints.${paused.generationId}`)) ??
        '',
      rawJob ?? '',
    ].join('\n');
    expect(stored).toContain('"event":"completed"');
    for (const text of texts) expect(secretFormsIn(stored, text), text).toEqual([]);
  });

  it('a worker process holding another key runs nothing: the job is dead-lettered with unknown_payload_key, still sealed, and the person can still answer here', async () => {
    const key = newKey();
    const queue = uniqueId('queue');
    const workerProcess = worker(queue, { INTERLUDE_PAYLOAD_KEY: newKey(), JOB_MAX_DELIVER: '2' });
    const { runtime, support } = localRuntime(aesGcmCodec({ keys: [key] }));

    const paused = await support.generation('handle', { ticketId: 42 }).generateNow();
    await workerProcess.waitForLine(/^ready$/);
    const { jobId } = await runtime.answerLater(paused.generationId, { call_refund: true }, { queue });
    await expect.poll(async () => (await runtime.bus.jobs.deadLetters(queue)).length, { timeout: 20_000 }).toBe(1);

    const [letter] = await runtime.bus.jobs.deadLetters(queue);
    expect(letter?.reason.code).toBe('unknown_payload_key');
    expect(letter?.job).toMatchObject({ id: jobId, answers: { call_refund: true } });
    const rawLetter = await rawStored(inject('natsUrl'), 'INTERLUDE_DEAD', `interlude.dead.${queue}`);
    expect(rawLetter.join('\n')).toContain('unknown_payload_key');
    for (const text of texts) expect(secretFormsIn(rawLetter.join('\n'), text), text).toEqual([]);
    expect(workerProcess.lines.filter((line) => line.startsWith('job '))).toEqual([]);
    expect((await sideEffects()).map((effect) => effect.tool)).toEqual(['lookup_order']);

    // A person answering through a runtime with another key is told so, before anything runs…
    const elsewhere = localRuntime(aesGcmCodec({ keys: [newKey()] })).runtime;
    const refused = await elsewhere.answer(paused.generationId, { call_refund: true }).catch((error: unknown) => error);
    expect(PayloadCodecError.isInstance(refused) && refused.code).toBe('unknown_payload_key');
    // …and nothing was claimed or run: the question is still open to whoever holds the key.
    const done = await runtime.answer(paused.generationId, { call_refund: true });
    expect(done.text).toBe('I refunded $30 on order 42.');
  });
});
