import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { REPOSITORY_ROOT } from '../docs/repository-files.js';
import { type ChildScript, watchChild } from '../support/bus-child-process.js';

const EXAMPLES = join(REPOSITORY_ROOT, 'examples');
const started: ChildScript[] = [];

/** Runs `examples/several-processes/<script>` as docs/several-processes.md tells a reader to. */
function run(script: string, env: Record<string, string>, args: string[] = []): ChildScript {
  const child = spawn(process.execPath, ['--import', 'tsx', `several-processes/${script}`, ...args], {
    cwd: EXAMPLES,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const watched = watchChild(child, script);
  started.push(watched);
  return watched;
}

afterAll(async () => {
  await Promise.all(started.map((child) => child.stop('SIGKILL')));
});

describe('the several-processes quickstart (examples/several-processes)', () => {
  it('pauses in a worker, is answered with a secret from another process, and every process exits by itself', async () => {
    // The suite's INTERLUDE_CHECKPOINT_KEY is in the environment, as the page asks of every process.
    const model = run('model.ts', { MODEL_PORT: '0' });
    const modelUrl = (await model.waitForLine(/^model: listening on /)).replace('model: listening on ', '');
    const env = {
      NATS_URL: inject('natsUrl'),
      QUEUE: `quickstart-${process.pid}-${Date.now().toString(36)}`,
      ANTHROPIC_BASE_URL: modelUrl,
      ANTHROPIC_API_KEY: 'fake',
    };
    const worker = run('worker.ts', env);
    await worker.waitForLine(/^worker: serving queue quickstart-/);

    const start = run('start.ts', env);
    expect(await start.exited, start.errors()).toBe(0);
    const generationId = /^start: queued (\S+)$/.exec(start.lines[0] ?? '')?.[1];
    expect(start.lines).toEqual([
      `start: queued ${generationId}`,
      'start: secret: PIN of customer 7?',
      'start: confirm: Refund $30 on order 42?',
    ]);

    const answer = run('answer.ts', env, [generationId ?? '', '4321']);
    expect(await answer.exited, answer.errors()).toBe(0);
    // The resume ran in the answering process: the refund, then the model's final answer.
    expect(answer.lines).toEqual(['refunded $30 on order 42', 'answer: Refunded $30 on order 42.']);

    const again = run('answer.ts', env, [generationId ?? '', '4321']);
    expect(await again.exited).toBe(1);
    expect(again.errors()).toContain(`answer: ${generationId} is not waiting for an answer`);

    await worker.stop('SIGTERM');
    expect(await worker.exited).toBe(0);
    expect(worker.lines.join('\n')).not.toContain('4321');
  });
});
