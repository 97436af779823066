import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aesGcmCodec, natsBus } from '@interlude/bus';
import { uniqueId } from '@interlude/bus/testing';
import { createRuntime, type Runtime } from '@interlude/core';
import { secretFormsIn } from '@interlude/core/testing';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { type ChildScript, startScript } from '../support/bus-child-process.js';
import { rawLastStored, rawStored } from '../support/bus-raw-log.js';
import { defineRefundAgent, type SideEffect } from '../support/bus-refund-agent.js';

let directory: string;
let sideEffectsFile: string;
const children: ChildScript[] = [];
const runtimes: Runtime[] = [];

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'interlude-codec-'));
  sideEffectsFile = join(directory, 'side-effects.jsonl');
});

afterEach(async () => {
  await Promise.all(children.splice(0).map((child) => child.stop('SIGKILL')));
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.close()));
  await rm(directory, { recursive: true, force: true });
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

/** A worker in its own process with `INTERLUDE_PAYLOAD_KEY` in its environment, as a deployment sets it. */
function worker(queue: string, payloadKey: string, extra: Record<string, string> = {}): ChildScript {
  const child = startScript('bus-worker-process.ts', {
    NATS_URL: inject('natsUrl'),
    QUEUE: queue,
    SIDE_EFFECTS_FILE: sideEffectsFile,
    INTERLUDE_PAYLOAD_KEY: payloadKey,
    ...extra,
  });
  children.push(child);
  return child;
}

function localRuntime(payloadKey: string) {
  const runtime = createRuntime({
    bus: natsBus({ servers: inject('natsUrl'), name: 'codec-test', codec: aesGcmCodec({ keys: [payloadKey] }) }),
  });
  runtimes.push(runtime);
  return { runtime, support: defineRefundAgent(runtime, { sideEffectsFile }) };
}

async function sideEffects(): Promise<SideEffect[]> {
  const text = await readFile(sideEffectsFile, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as SideEffect);
}

describe('a payload key shared across processes', () => {
  it('pauses here and resumes in a worker process holding the same key: each side effect once, and the stored streams hold none of the texts', async () => {
    const key = newKey();
    const queue = uniqueId('queue');
    const workerProcess = worker(queue, key);
    const { runtime, support } = localRuntime(key);

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
    const workerProcess = worker(queue, newKey(), { JOB_MAX_DELIVER: '2' });
    const { runtime, support } = localRuntime(key);

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

    // Nothing was claimed or run: the question is still open to whoever holds the key.
    const done = await runtime.answer(paused.generationId, { call_refund: true });
    expect(done.text).toBe('I refunded $30 on order 42.');
  });
});
