import { createWorker } from '@interlude/bus';
import { createRuntime, defineAgent, type GenerationEvent, InputRequest, ResumeError, tool } from '@interlude/core';
import { canResume } from '@interlude/core/internal';
import { scriptedProvider } from '@interlude/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { QuestionAnswerer } from './answer-question.js';

const runtimes: Array<ReturnType<typeof createRuntime>> = [];
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.close()));
});

/** A desk whose model asks two questions in one turn: a confirm and a secret or a choice. */
function createDesk(second: 'secret' | 'choice') {
  const runtime = createRuntime();
  runtimes.push(runtime);
  const received: unknown[] = [];
  const ask = tool({
    name: 'ask',
    description: 'asks',
    input: z.object({ kind: z.string() }),
    async run({ kind }, ctx) {
      if (ctx.answer === undefined) {
        if (kind === 'secret') return InputRequest.secret('Token?');
        if (kind === 'choice') return InputRequest.choice('Size?', { options: [1, 2, { value: 3, label: 'three' }] });
        return InputRequest.confirm('Go?');
      }
      received.push(ctx.answer);
      return { ok: true };
    },
  });
  const agent = defineAgent({
    name: 'desk',
    runtime,
    provider: scriptedProvider([
      {
        toolCalls: [
          { id: 'call_confirm', name: 'ask', arguments: { kind: 'confirm' } },
          { id: 'call_second', name: 'ask', arguments: { kind: second } },
        ],
      },
      { text: 'Done.' },
    ]),
    actions: { handle: () => ({ message: 'Handle it', tools: [ask] }) },
  });
  return { runtime, agent, received, answerer: new QuestionAnswerer(runtime, 'agents') };
}

describe('QuestionAnswerer', () => {
  it('holds the first answer of a turn, then resumes through a job once every question has one', async () => {
    const desk = createDesk('choice');
    const paused = await desk.agent.handle().generateNow();
    const first = await desk.answerer.answer(paused.generationId, 'call_confirm', 'yes');
    expect(first).toEqual({ resumed: false, waitingFor: ['call_second'] });
    const held = await desk.runtime.bus.checkpoints.load(paused.generationId);
    expect(held && (await canResume(desk.runtime, held.checkpoint))).toBe(true);

    const completed = new Promise<GenerationEvent>((resolve) => {
      void desk.runtime.bus.subscribe({ event: 'completed' }, resolve);
    });
    const worker = createWorker({ runtime: desk.runtime, agents: [desk.agent] });
    const second = await desk.answerer.answer(paused.generationId, 'call_second', '3');
    expect(second).toMatchObject({ resumed: 'worker' });
    expect((await completed).data).toMatchObject({ text: 'Done.' });
    await worker.stop();
    // The choice typed as "3" reached the tool as the option's value, 3.
    expect(desk.received).toEqual([true, 3]);
  });

  it('resumes a turn with a secret in-process, without a job', async () => {
    const desk = createDesk('secret');
    const paused = await desk.agent.handle().generateNow();
    await desk.answerer.answer(paused.generationId, 'call_confirm', true);
    const outcome = await desk.answerer.answer(paused.generationId, 'call_second', 'hunter2-token');
    expect(outcome).toEqual({ resumed: 'in-process', status: 'completed' });
    expect(desk.received).toEqual([true, 'hunter2-token']);
    const log = JSON.stringify(await desk.runtime.bus.events(paused.generationId));
    expect(log).not.toContain('hunter2-token');
  });

  it('refuses answers a question does not take, and questions that are not waiting', async () => {
    const desk = createDesk('choice');
    const paused = await desk.agent.handle().generateNow();
    await expect(desk.answerer.answer(paused.generationId, 'call_second', 'four')).rejects.toThrow(
      '"Size?" takes one of: 1, 2, 3',
    );
    await expect(desk.answerer.answer(paused.generationId, 'call_confirm', 'maybe')).rejects.toThrow('takes yes or no');
    await expect(desk.answerer.answer(paused.generationId, 'call_other', true)).rejects.toSatisfy(
      (error) => ResumeError.isInstance(error) && error.code === 'unknown_call',
    );
    await expect(desk.answerer.answer('gen_missing', 'call_confirm', true)).rejects.toSatisfy(
      (error) => ResumeError.isInstance(error) && error.code === 'not_found',
    );
  });
});
