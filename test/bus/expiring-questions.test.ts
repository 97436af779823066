import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { natsBus } from '@interlude/bus';
import { uniqueId } from '@interlude/bus/testing';
import { createRuntime, type Runtime } from '@interlude/core';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { type ChildScript, startScript } from '../support/bus-child-process.js';
import { defineRefundAgent, readSideEffects, type SideEffect } from '../support/bus-refund-agent.js';

let directory: string;
let sideEffectsFile: string;
const children: ChildScript[] = [];
const runtimes: Runtime[] = [];

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'interlude-expiry-'));
  sideEffectsFile = join(directory, 'side-effects.jsonl');
});

afterEach(async () => {
  await Promise.all(children.splice(0).map((child) => child.stop('SIGKILL')));
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.close()));
  await rm(directory, { recursive: true, force: true });
});

async function refunds(): Promise<SideEffect[]> {
  return (await readSideEffects(sideEffectsFile)).filter((effect) => effect.tool === 'issue_refund');
}

/** A runtime of this process on the test's NATS, with the refund agent under `name`. */
function localRuntime(name: string) {
  const runtime = createRuntime({ bus: natsBus({ servers: inject('natsUrl'), name: 'test-process' }) });
  runtimes.push(runtime);
  return { runtime, agent: defineRefundAgent(runtime, { sideEffectsFile, name, approveAfterMs: 60_000 }) };
}

function child(script: string, env: Record<string, string>): ChildScript {
  const started = startScript(script, { NATS_URL: inject('natsUrl'), SIDE_EFFECTS_FILE: sideEffectsFile, ...env });
  children.push(started);
  return started;
}

describe('a question that expires, on NATS', () => {
  it('is resumed once, after its deadline, by a worker, though the process that asked is gone', async () => {
    // An agent of this test's own: its deadlines go to the workers started here and no others.
    const name = uniqueId('expiring');
    const asker = child('expiring-question-process.ts', { AGENT_NAME: name, APPROVE_AFTER_MS: '1500' });
    const [, generationId = '', deadline = ''] = (await asker.waitForLine(/^paused /)).split(' ');
    expect(await asker.exited).toBe(0);

    // A process that never saw the question lists it, with its deadline.
    const { runtime } = localRuntime(name);
    const listed = await runtime.pending({ agent: name });
    expect(listed.map((entry) => [entry.generationId, entry.expiresAt?.toISOString()])).toEqual([
      [generationId, deadline],
    ]);

    // Two workers share the agent's deadlines; the expiry resume is one job, claimed once.
    const workers = [1, 2].map(() =>
      child('bus-worker-process.ts', { QUEUE: uniqueId('queue'), AGENT_NAME: name, APPROVE_AFTER_MS: '1500' }),
    );
    await Promise.all(workers.map((worker) => worker.waitForLine(/^ready$/)));
    await Promise.race(workers.map((worker) => worker.waitForLine(new RegExp(`^job completed ${generationId}$`))));

    const events = await runtime.bus.events(generationId);
    const names = events.map((event) => event.event);
    expect(names.filter((event) => event === 'input_expired')).toHaveLength(1);
    expect(names.slice(names.indexOf('input_requested'))).toEqual([
      'input_requested',
      'input_expired',
      'resumed',
      'tool_started',
      'tool_completed',
      'model_responded',
      'completed',
    ]);
    const expired = events.find((event) => event.event === 'input_expired');
    expect(Date.parse(expired?.time ?? '')).toBeGreaterThanOrEqual(Date.parse(deadline));
    // onExpiry approved the refund: it ran once, in a worker.
    expect((await refunds()).map((effect) => effect.generation_id)).toEqual([generationId]);
    expect(await runtime.pending({ agent: name })).toEqual([]);
    await expect(runtime.answer(generationId, { call_refund: false })).rejects.toMatchObject({ code: 'expired' });
  }, 60_000);
});

describe('a question nobody answered, met by a worker', () => {
  it('reaches the model as no answer in time, not a decline, and the events say so', async () => {
    const name = uniqueId('unanswered');
    const settings = { AGENT_NAME: name, APPROVE_AFTER_MS: '1500', EXPIRE_UNANSWERED: '1' };
    const asker = child('expiring-question-process.ts', settings);
    const [, generationId = ''] = (await asker.waitForLine(/^paused /)).split(' ');
    expect(await asker.exited).toBe(0);
    const worker = child('bus-worker-process.ts', { QUEUE: uniqueId('queue'), ...settings });
    await worker.waitForLine(/^ready$/);
    await worker.waitForLine(new RegExp(`^job completed ${generationId}$`));

    const { runtime } = localRuntime(name);
    const events = await runtime.bus.events(generationId);
    expect(events.find((event) => event.event === 'input_expired')?.data).toMatchObject({
      unanswered_tool_calls: ['call_refund'],
      answered_tool_calls: [],
    });
    expect(events.find((event) => event.event === 'resumed')?.data).toMatchObject({
      answered_tool_calls: [],
      declined_tool_calls: [],
    });
    const refund = events.find(
      (event) => event.event === 'tool_completed' && event.data.tool_call_id === 'call_refund',
    );
    expect(refund?.data).toMatchObject({ result: { error: 'no answer in time' }, is_error: true });
    expect(await refunds()).toEqual([]);
  }, 60_000);
});

describe('runtime.pending() on NATS', () => {
  it('is exact across a restart, a resume and a cancel', async () => {
    const name = uniqueId('waiting');
    const first = localRuntime(name);
    const paused = [];
    for (let ticket = 0; ticket < 3; ticket += 1) {
      paused.push((await first.agent.generation('handle', { ticketId: ticket }).generateNow()).generationId);
    }
    await first.runtime.close();

    // Restarted: the questions asked before are listed, oldest first.
    const second = localRuntime(name);
    expect((await second.runtime.pending({ agent: name })).map((entry) => entry.generationId)).toEqual(paused);
    const [answered = '', cancelled = '', open = ''] = paused;
    expect((await second.runtime.answer(answered, { call_refund: true })).status).toBe('completed');
    await second.runtime.cancel(cancelled, 'resolved by phone');
    expect((await second.runtime.pending({ agent: name })).map((entry) => entry.generationId)).toEqual([open]);
    await expect(second.runtime.answer(cancelled, { call_refund: true })).rejects.toMatchObject({
      code: 'cancelled',
    });

    const third = localRuntime(name);
    const [only] = await third.runtime.pending({ agent: name });
    expect(only?.generationId).toBe(open);
    expect(only?.inputRequests.map((request) => [request.toolCallId, request.prompt])).toEqual([
      ['call_refund', 'Refund $30 on order 42?'],
    ]);
  }, 30_000);
});
