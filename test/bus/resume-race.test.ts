import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { natsBus } from '@interlude/bus';
import { createRuntime, ResumeError } from '@interlude/core';
import { describe, expect, inject, it } from 'vitest';
import { defineRefundAgent, type SideEffect } from '../support/bus-refund-agent.js';

describe('two runtimes resuming the same paused generations at once', () => {
  it('100 pairs of concurrent resumes: one completes, the other gets already_resumed; each refund runs once', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'interlude-race-'));
    const sideEffectsFile = join(directory, 'effects.jsonl');
    const [left, right] = ['left', 'right'].map((name) =>
      createRuntime({ bus: natsBus({ servers: inject('natsUrl'), name }) }),
    ) as [ReturnType<typeof createRuntime>, ReturnType<typeof createRuntime>];
    const leftSupport = defineRefundAgent(left, { sideEffectsFile });
    defineRefundAgent(right, { sideEffectsFile });

    const paused = await Promise.all(
      Array.from({ length: 100 }, (_, ticketId) => leftSupport.generation('handle', { ticketId }).generateNow()),
    );
    // A random head start of 0–3 ms per side, so neither connection is always first.
    const jitter = () => new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
    const outcome = (resume: () => Promise<{ status: string }>) =>
      jitter()
        .then(resume)
        .then(
          (response) => response.status,
          (error: unknown) => (ResumeError.isInstance(error) ? error.code : String(error)),
        );
    // Ten pairs at a time: with all 100 in flight one connection's backlog decides every race.
    const pairs: string[][] = [];
    for (let start = 0; start < paused.length; start += 10) {
      const batch = paused.slice(start, start + 10);
      pairs.push(
        ...(await Promise.all(
          batch.map(({ generationId }) =>
            Promise.all([
              outcome(() => left.answer(generationId, { call_refund: true })),
              outcome(() => right.answer(generationId, { call_refund: true })),
            ]),
          ),
        )),
      );
    }

    for (const pair of pairs) expect([...pair].sort()).toEqual(['already_resumed', 'completed']);
    // Each side won some pairs: the resumes really raced.
    const leftWins = pairs.filter(([leftOutcome]) => leftOutcome === 'completed').length;
    expect(leftWins).toBeGreaterThan(0);
    expect(leftWins).toBeLessThan(100);
    const effects = (await readFile(sideEffectsFile, 'utf8'))
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as SideEffect);
    const refunded = effects.filter((effect) => effect.tool === 'issue_refund').map((effect) => effect.generation_id);
    expect(refunded.sort()).toEqual(paused.map((response) => response.generationId).sort());

    await Promise.all([left.close(), right.close()]);
    await rm(directory, { recursive: true, force: true });
  });
});
