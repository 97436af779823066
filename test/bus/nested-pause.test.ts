import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { natsBus } from '@interlude/bus';
import { uniqueId } from '@interlude/bus/testing';
import { createRuntime, type Runtime } from '@interlude/core';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { type ChildScript, startScript } from '../support/bus-child-process.js';
import { readSideEffects } from '../support/bus-refund-agent.js';
import { DEEP_QUESTION, defineNestedTree } from '../support/nested-tree-agents.js';

let directory: string;
let sideEffectsFile: string;
const children: ChildScript[] = [];
const runtimes: Runtime[] = [];

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'interlude-nested-'));
  sideEffectsFile = join(directory, 'side-effects.jsonl');
});

afterEach(async () => {
  await Promise.all(children.splice(0).map((child) => child.stop('SIGKILL')));
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.close()));
  await rm(directory, { recursive: true, force: true });
});

function tree(env: Record<string, string>): ChildScript {
  const started = startScript('nested-tree-process.ts', {
    NATS_URL: inject('natsUrl'),
    SIDE_EFFECTS_FILE: sideEffectsFile,
    ...env,
  });
  children.push(started);
  return started;
}

/** Which process ran each tool body, by tool: every body once, in the process expected. */
async function bodiesByTool(): Promise<Record<string, number[]>> {
  const byTool: Record<string, number[]> = {};
  for (const effect of await readSideEffects(sideEffectsFile)) {
    byTool[effect.tool] = [...(byTool[effect.tool] ?? []), effect.pid];
  }
  return byTool;
}

async function askInChild(prefix: string, checkpointFile?: string) {
  const asker = tree({ MODE: 'ask', PREFIX: prefix, ...(checkpointFile && { CHECKPOINT_FILE: checkpointFile }) });
  const [, generationId = '', questions = ''] = (await asker.waitForLine(/^paused /)).split(' ');
  expect(await asker.exited).toBe(0);
  return { generationId, questions: questions.split(','), pid: asker.process.pid as number };
}

describe('a question three levels down, across processes on NATS', () => {
  it('is listed on the root by a process that never ran it, and answerLater resumes the tree in a worker', async () => {
    const prefix = uniqueId('tree');
    const queue = uniqueId('queue');
    const asked = await askInChild(prefix);
    expect(asked.questions).toEqual([DEEP_QUESTION]);

    const runtime = createRuntime({ bus: natsBus({ servers: inject('natsUrl'), name: 'nested-test' }) });
    runtimes.push(runtime);
    defineNestedTree(runtime, { prefix, sideEffectsFile });
    const listed = await runtime.pending({ agent: `${prefix}-triage` });
    expect(
      listed.map((entry) => [entry.generationId, entry.inputRequests.map((request) => request.toolCallId)]),
    ).toEqual([[asked.generationId, [DEEP_QUESTION]]]);
    expect(listed[0]?.inputRequests[0]?.path?.map((step) => step.agent)).toEqual([
      `${prefix}-refunds`,
      `${prefix}-payments`,
    ]);

    const worker = tree({ MODE: 'worker', PREFIX: prefix, QUEUE: queue });
    await worker.waitForLine(/^ready$/);
    await runtime.answerLater(asked.generationId, { [DEEP_QUESTION]: true }, { queue });
    await worker.waitForLine(new RegExp(`^job completed ${asked.generationId}$`));

    const workerPid = worker.process.pid as number;
    expect(await bodiesByTool()).toEqual({
      add_note: [asked.pid],
      lookup_order: [asked.pid],
      pay_out: [workerPid],
    });
    const events = await runtime.bus.events(asked.generationId);
    const completed = events.find((event) => event.event === 'completed');
    expect(JSON.stringify(completed?.data)).toContain('Paid $30.');
    expect(await runtime.pending({ agent: `${prefix}-triage` })).toEqual([]);
  }, 60_000);

  it('resumes with resumeNow in another process from the checkpoint as JSON, each body once', async () => {
    const prefix = uniqueId('tree');
    const checkpointFile = join(directory, 'checkpoint.json');
    const asked = await askInChild(prefix, checkpointFile);
    const resumer = tree({ MODE: 'resume', PREFIX: prefix, CHECKPOINT_FILE: checkpointFile });
    const done = await resumer.waitForLine(/^done /);
    expect(done).toMatch(/^done completed Triage done: .*Paid \$30\./);
    expect(await resumer.exited).toBe(0);
    expect(await bodiesByTool()).toEqual({
      add_note: [asked.pid],
      lookup_order: [asked.pid],
      pay_out: [resumer.process.pid as number],
    });
  }, 60_000);
});
