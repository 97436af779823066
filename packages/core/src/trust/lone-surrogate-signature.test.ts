import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Checkpoint } from '../checkpoint/checkpoint.js';
import { ResumeError } from '../errors/resume-error.js';
import { InputRequest } from '../input-request/input-request.js';
import { scriptedAgent, throughJson } from '../test-support/harness.js';
import { tool } from '../tool/tool.js';

/** A paused generation whose checkpoint holds `note` (the model's argument and the tool's result), signed. */
async function pausedWith(note: string) {
  const runs = { note: 0 };
  const echoNote = tool({
    name: 'echo_note',
    description: 'Repeat a note',
    input: z.object({ note: z.string() }),
    run: ({ note: text }) => {
      runs.note += 1;
      return { note: text };
    },
  });
  const confirm = tool({
    name: 'confirm',
    description: 'Ask first',
    input: z.object({}),
    run: (_, ctx) => (ctx.answer === undefined ? InputRequest.confirm('Go on?') : { ok: true }),
  });
  const harness = scriptedAgent(
    () => ({ message: 'Keep the note', tools: [echoNote, confirm] }),
    [
      {
        toolCalls: [
          { id: 'call_note', name: 'echo_note', arguments: { note } },
          { id: 'call_confirm', name: 'confirm', arguments: {} },
        ],
      },
      { text: 'done' },
    ],
    { checkpointKey: 'test-checkpoint-key-0123456789' },
  );
  const paused = await harness.agent.handle({}).generateNow();
  return { ...harness, runs, checkpoint: throughJson(paused.checkpoint) as Checkpoint };
}

async function codeOf(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    if (ResumeError.isInstance(error)) return error.code;
    throw error;
  }
  return 'resumed';
}

describe('a signed checkpoint and lone surrogates', () => {
  it('is refused once a U+FFFD in it is swapped for a lone surrogate, or one lone surrogate for another', async () => {
    for (const [written, swapped] of [
      ['a\uFFFDb', 'a\\ud800b'],
      ['a\ud800b', 'a\\udfffb'],
      ['a\ud800b', 'a\\ufffdb'],
    ] as const) {
      const { agent, checkpoint } = await pausedWith(written);
      const text = JSON.stringify(checkpoint);
      const stored = JSON.stringify(written).slice(1, -1);
      expect(text).toContain(stored);
      const altered = JSON.parse(text.replaceAll(stored, swapped)) as Checkpoint;
      expect(altered).not.toEqual(checkpoint);
      expect(
        await codeOf(() => agent.handle({}).resumeNow({ checkpoint: altered, answers: { call_confirm: true } })),
      ).toBe('bad_signature');
    }
  });

  it('resumes a checkpoint holding a lone surrogate as signed, which JSON carries exactly', async () => {
    const { agent, checkpoint, provider } = await pausedWith('cut emoji \ud83d');
    const done = await agent.handle({}).resumeNow({ checkpoint, answers: { call_confirm: true } });
    expect(done.status).toBe('completed');
    expect(JSON.stringify(provider.requests.at(-1))).toContain('cut emoji \\ud83d');
  });
});
