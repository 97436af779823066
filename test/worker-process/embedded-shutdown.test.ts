import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { natsBus } from '@interlude/bus';
import { createRuntime, type Runtime } from '@interlude/core';
import type { AgentBase } from '@interlude/core/internal';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readRepositoryFile } from '../docs/repository-files.js';
import { type ChildScript, startScript } from '../support/bus-child-process.js';
import { defineRefundAgent, readSideEffects } from '../support/bus-refund-agent.js';
import { waitUntil } from '../support/reliability-wait.js';

const SCRIPT = 'embedded-worker-process.ts';

/** The shutdown the README shows, as the script runs it (between its README markers, dedented). */
function readmeShutdown(): string {
  const script = readFileSync(join(import.meta.dirname, '..', 'support', SCRIPT), 'utf8');
  const begin = script.indexOf('// README: embedded shutdown (begin)\n');
  const end = script.indexOf('  // README: embedded shutdown (end)');
  const region = script.slice(script.indexOf('\n', begin) + 1, end);
  return region.replace(/^ {2}/gm, '');
}

let scratch: string;
let runtime: Runtime;
let support: AgentBase;
/** Every process's tools append here, the test's own (which runs none) included. */
let sideEffectsFile: string;
const children: ChildScript[] = [];

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'interlude-embedded-'));
  runtime = createRuntime({ bus: natsBus({ servers: inject('natsUrl'), onError: () => undefined }) });
  sideEffectsFile = join(scratch, 'side-effects.jsonl');
  support = defineRefundAgent(runtime, { sideEffectsFile });
});

afterAll(async () => {
  await Promise.all(children.map((child) => child.stop('SIGKILL')));
  await runtime?.close();
  await rm(scratch, { recursive: true, force: true });
});

function start(env: Record<string, string>): ChildScript {
  const child = startScript(SCRIPT, { NATS_URL: inject('natsUrl'), ...env });
  children.push(child);
  return child;
}

/** Resolves with the exit code, or a sentence if the process is still there after `withinMs`. */
function exitWithin(child: ChildScript, withinMs: number): Promise<number | null | string> {
  return Promise.race([
    child.exited,
    new Promise<string>((resolve) => setTimeout(() => resolve(`still running ${withinMs} ms after SIGTERM`), withinMs)),
  ]);
}

describe('a worker embedded in an application, shut down as the README shows', () => {
  it('is the shutdown the several-processes page shows, character for character', () => {
    const shown = readmeShutdown();
    expect(shown).toContain('await worker.stop({ timeoutMs: 10_000 })');
    expect(readRepositoryFile('docs/several-processes.md')).toContain(shown);
  });

  it('exits 0 on SIGTERM while a job hangs; the job is handed back and another worker finishes it, refunding once', async () => {
    const queue = `embedded-${process.pid}-${Date.now().toString(36)}`;
    const stallFile = join(scratch, 'stalled');
    await writeFile(stallFile, '');
    const first = start({ QUEUE: queue, SIDE_EFFECTS_FILE: sideEffectsFile, STALL_FILE: stallFile });
    await first.waitForLine(/^ready$/, 30_000);
    const { generationId } = await support.generation('handle', { ticketId: 7 }).generateLater({ queue });
    await first.waitForLine(new RegExp(`^job awaiting_input ${generationId}$`));
    await runtime.answerLater(generationId, { call_refund: true }, { queue });
    await waitUntil(async () => (await readFile(stallFile, 'utf8')).includes('stalled'), 'the job to hang', {
      timeoutMs: 20_000,
    });

    first.process.kill('SIGTERM');
    // The README gives running jobs 10 s: then the hung one is handed back and the process exits.
    expect(await exitWithin(first, 20_000)).toBe(0);

    const second = start({ QUEUE: queue, SIDE_EFFECTS_FILE: sideEffectsFile });
    await second.waitForLine(new RegExp(`^job completed ${generationId}$`), 30_000);
    const refunds = (await readSideEffects(sideEffectsFile)).filter(
      (effect) => effect.tool === 'issue_refund' && effect.generation_id === generationId,
    );
    expect(refunds.map((effect) => effect.pid)).toEqual([first.process.pid]);
    second.process.kill('SIGTERM');
    expect(await exitWithin(second, 10_000)).toBe(0);
  }, 90_000);

  it('ends by itself after worker.stop() and runtime.close() alone: nothing of Interlude keeps it alive', async () => {
    const queue = `natural-${process.pid}-${Date.now().toString(36)}`;
    const child = start({ QUEUE: queue, SIDE_EFFECTS_FILE: sideEffectsFile, NATURAL_EXIT: '1' });
    await child.waitForLine(/^ready$/, 30_000);
    const { generationId } = await support.generation('handle', { ticketId: 8 }).generateLater({ queue });
    await child.waitForLine(new RegExp(`^job awaiting_input ${generationId}$`));
    child.process.kill('SIGTERM');
    expect(await exitWithin(child, 10_000)).toBe(0);
  }, 60_000);
});
