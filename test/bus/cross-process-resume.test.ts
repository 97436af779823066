import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { natsBus } from '@interlude/bus';
import { uniqueId } from '@interlude/bus/testing';
import { createRuntime, type Runtime } from '@interlude/core';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { type ChildScript, startScript } from '../support/bus-child-process.js';
import { defineRefundAgent, type SideEffect } from '../support/bus-refund-agent.js';

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

async function sideEffects(): Promise<SideEffect[]> {
  const text = await readFile(sideEffectsFile, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as SideEffect);
}

async function untilFileHasText(path: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await readFile(path, 'utf8').catch(() => '')) === '') {
    if (Date.now() > deadline) throw new Error(`${path} stayed empty for ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

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

function localRuntime() {
  const runtime = createRuntime({ bus: natsBus({ servers: inject('natsUrl'), name: 'test-process' }) });
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
