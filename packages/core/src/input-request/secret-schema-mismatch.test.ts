import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ResumeError } from '../errors/resume-error.js';
import { scriptedAgent, throughJson } from '../test-support/harness.js';
import { tool } from '../tool/tool.js';
import { InputRequest } from './input-request.js';

const CANARY = 'CANARY-a41b77-secret';

/** A generation paused on one question of `kind` with `schema`; `refusal(answer)` is the message its resume is refused with. */
async function pausedOn(kind: 'secret' | 'text', schema: z.ZodType) {
  const ask = tool({
    name: 'store_credentials',
    description: 'Store credentials',
    input: z.object({}),
    run: (_, ctx) => (ctx.answer === undefined ? InputRequest[kind]('Credentials?', { schema }) : { stored: true }),
  });
  const { agent } = scriptedAgent(
    () => ({ message: 'Store them', tools: [ask] }),
    [{ toolCalls: [{ id: 'c_ask', name: 'store_credentials', arguments: {} }] }, { text: 'done' }],
  );
  const paused = await agent.handle({}).generateNow();
  return async (answer: unknown): Promise<{ code: string; message: string }> => {
    try {
      await agent.handle({}).resumeNow({ checkpoint: throughJson(paused.checkpoint), answers: { c_ask: answer } });
    } catch (error) {
      if (ResumeError.isInstance(error)) return { code: error.code, message: error.message };
      throw error;
    }
    return { code: 'resumed', message: '' };
  };
}

describe('a secret answer refused for its schema', () => {
  it('says what is wrong without the value, its keys or a path through them', async () => {
    const strict = await pausedOn('secret', z.object({ user: z.string(), pin: z.string().min(4) }).strict());
    const unknownKey = await strict({ user: 'ann', pin: '123456', [CANARY]: 'x' });
    expect(unknownKey.code).toBe('schema_mismatch');
    expect(unknownKey.message).not.toContain(CANARY);
    expect(unknownKey.message).toContain('1 key the schema does not allow');
    expect(unknownKey.message).toContain('call c_ask (store_credentials)');

    const wrongType = await strict({ user: CANARY, pin: 4921 });
    expect(wrongType.message).not.toContain(CANARY);
    expect(wrongType.message).not.toContain('4921');
    expect(wrongType.message).toContain('the answer.pin: expected string');

    const tooShort = await strict({ user: CANARY, pin: '12' });
    expect(tooShort.message).toContain('the answer.pin: too small for the schema (at least 4 characters)');

    const keyed = await pausedOn('secret', z.record(z.string(), z.object({ token: z.string() })));
    const throughKey = await keyed({ [CANARY]: { token: 7 } });
    expect(throughKey.code).toBe('schema_mismatch');
    expect(throughKey.message).not.toContain(CANARY);
    expect(throughKey.message).toContain('the answer.<key>.token: expected string');

    const patterned = await pausedOn('secret', z.string().regex(/^\d{6}$/));
    const notDigits = await patterned(CANARY);
    expect(notDigits.message).not.toContain(CANARY);
    expect(notDigits.message).toContain("not in the schema's format");
  });

  it('keeps zod’s full message for an answer that is not secret', async () => {
    const strict = await pausedOn('text', z.object({ user: z.string() }).strict());
    const refused = await strict({ user: 'ann', extra_field: 1 });
    expect(refused.code).toBe('schema_mismatch');
    expect(refused.message).toContain('extra_field');
  });
});
