import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineAgent } from '../agent/define-agent.js';
import { InputRequest } from '../input-request/input-request.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { scriptedProvider } from '../testing/scripted-provider.js';
import { tool } from '../tool/tool.js';
import { verifyAnswerToken } from '../trust/answer-token.js';
import { authorizeAnswers } from './answer-tokens.js';

/** An agent whose one tool asks twice on the same call (a confirm, then a text), so a pause can be answered and asked again. */
function desk(checkpointKey = 'answer-token-test-key-0001') {
  const runtime = createRuntime({ checkpointKey });
  const ask = tool({
    name: 'ask',
    description: 'Ask a person',
    input: z.object({}),
    run(_, ctx) {
      if (ctx.answer === undefined) return InputRequest.confirm('Go ahead?');
      if (ctx.answer === true) return InputRequest.text('Why?');
      return { said: ctx.answer };
    },
  });
  const reply = (request: { messages: unknown[] }) =>
    request.messages.length === 1 ? { toolCalls: [{ id: 'call_ask', name: 'ask', arguments: {} }] } : { text: 'ok' };
  const agent = defineAgent({
    name: 'support',
    runtime,
    provider: scriptedProvider(Array.from({ length: 10 }, () => reply)),
    actions: { handle: () => ({ message: 'Go', tools: [ask] }) },
  });
  return { runtime, agent };
}

const codeOf = async (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: { code?: string }) => error.code,
  );

describe('answer tokens', () => {
  it('are those of the pause however late they are first read, in JSON.stringify and spreads too', async () => {
    const { runtime, agent } = desk();
    const paused = await agent.handle({}).generateNow();
    const asked = paused.checkpoint?.input_requests[0];
    if (paused.checkpoint === undefined || asked === undefined) throw new Error('the generation did not pause');
    // An app that edits its copy of the checkpoint before it reads the tokens gets the pause's tokens still.
    paused.checkpoint.claim_slot = 7;
    asked.tool_call_id = 'call_other';
    asked.kind = 'text';
    const serialized = JSON.parse(JSON.stringify(paused)) as { answerTokens: Record<string, string> };
    const token = serialized.answerTokens['call_ask'] as string;
    expect(Object.keys(serialized.answerTokens)).toEqual(['call_ask']);
    expect(verifyAnswerToken(runtime.keys, token)).toMatchObject({
      toolCallId: 'call_ask',
      kind: 'confirm',
      claimSlot: 0,
    });
    expect({ ...paused }.answerTokens).toEqual(serialized.answerTokens);
    paused.answerTokens = {};
    expect(paused.answerTokens).toEqual({});
  });

  it('come with a paused response, URL-safe, naming the generation, the call and the kind, and never on the bus', async () => {
    const { runtime, agent } = desk();
    const seen: string[] = [];
    await runtime.bus.subscribe({}, (event) => {
      seen.push(JSON.stringify(event));
    });
    const paused = await agent.handle({}).generateNow();
    const token = paused.answerTokens['call_ask'] as string;
    expect(token).toMatch(/^[A-Za-z0-9_.-]+$/);
    expect(encodeURIComponent(token)).toBe(token);
    expect(verifyAnswerToken(runtime.keys, token)).toMatchObject({
      generationId: paused.generationId,
      toolCallId: 'call_ask',
      kind: 'confirm',
    });
    await authorizeAnswers(runtime, paused.generationId, { call_ask: true }, [token]);
    await expect.poll(() => seen.length).toBeGreaterThan(0);
    expect(seen.join('\n')).not.toContain(token.split('.')[2]);
  });

  it('refuse another call, another generation, an altered or foreign token, an expired one, and a spent one', async () => {
    const { runtime, agent } = desk();
    const first = await agent.handle({}).generateNow();
    const second = await agent.handle({}).generateNow();
    const token = first.answerTokens['call_ask'] as string;
    expect(await codeOf(authorizeAnswers(runtime, first.generationId, { call_other: true }, [token]))).toBe(
      'answer_token_mismatch',
    );
    expect(await codeOf(authorizeAnswers(runtime, second.generationId, { call_ask: true }, [token]))).toBe(
      'answer_token_mismatch',
    );
    const [payload, keyId, signature] = token.split('.') as [string, string, string];
    const altered = `${payload}.${keyId}.${signature.replace(/^./, (digit) => (digit === '0' ? '1' : '0'))}`;
    expect(await codeOf(authorizeAnswers(runtime, first.generationId, { call_ask: true }, [altered]))).toBe(
      'invalid_answer_token',
    );
    const foreign = desk('another-deployment-key-0002');
    const theirs = (await foreign.agent.handle({}).generateNow()).answerTokens['call_ask'] as string;
    expect(await codeOf(authorizeAnswers(runtime, first.generationId, { call_ask: true }, [theirs]))).toBe(
      'invalid_answer_token',
    );

    const short = await runtime.answerToken(first.generationId, 'call_ask', { expiresIn: 1 });
    await expect
      .poll(() => codeOf(authorizeAnswers(runtime, first.generationId, { call_ask: true }, [short])))
      .toBe('expired_answer_token');
    expect(await codeOf(runtime.answerToken(first.generationId, 'call_nope'))).toBe('unknown_call');

    // Answered, the same call asks again: the first pause's token is spent, a new one answers.
    const again = await runtime.answer(first.generationId, { call_ask: true });
    expect(again.awaitingInput).toBe(true);
    expect(await codeOf(authorizeAnswers(runtime, first.generationId, { call_ask: 'because' }, [token]))).toBe(
      'already_resumed',
    );
    const fresh = again.answerTokens['call_ask'] as string;
    await authorizeAnswers(runtime, first.generationId, { call_ask: 'because' }, [fresh]);
    await expect(runtime.answerToken(first.generationId, 'call_ask', { expiresIn: -1 })).rejects.toThrow(TypeError);
  });
});
