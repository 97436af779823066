import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Checkpoint } from '../checkpoint/checkpoint.js';
import { canResume } from '../claims/can-resume.js';
import type { InputRequestJSON } from '../input-request/input-request.js';
import { InputRequest } from '../input-request/input-request.js';
import { expectRebuildMatches, scriptedAgent, throughJson } from '../test-support/harness.js';
import { secretFormsIn } from '../testing/secret-in-every-form.js';
import { tool } from '../tool/tool.js';
import { releaseScrubber } from './generation-secrets.js';
import { Scrubber } from './scrub.js';
import { scrubSchema } from './scrub-schema.js';

const TOKEN = 'tok-7f3a9c-Ünï-deploy';

/**
 * Asks for a token, then asks which account to deploy with: a question built from the token in
 * every part a question has.
 */
function deployAgent(options: { onInputRequest?: Array<(requests: InputRequest[]) => void> } = {}) {
  const picked: unknown[] = [];
  let token = '';
  const chooseAccount = tool({
    name: 'choose_account',
    description: 'Pick the account the token belongs to',
    input: z.object({}),
    run: (_, ctx) => {
      if (ctx.answer !== undefined) {
        picked.push(ctx.answer);
        return { account: ctx.answer };
      }
      return InputRequest.choice(`Deploy as ${token} or as the bot?`, {
        options: [
          { value: `acct:${token}`, label: `the account of ${Buffer.from(token).toString('base64')}` },
          { value: { account: 'bot', via: token }, label: 'the bot' },
          { value: 'nobody', label: 'nobody' },
        ],
        schema: {
          description: `one of the accounts for ${encodeURIComponent(token)}`,
          examples: [token.toUpperCase()],
        },
        metadata: { token_hex: Buffer.from(token).toString('hex'), kept: 'plain' },
      });
    },
  });
  const remember = tool({
    name: 'remember_token',
    description: 'Keep the token for the next question',
    input: z.object({}),
    run: (_, ctx) => {
      if (ctx.answer === undefined) return InputRequest.secret('Token again?');
      token = String(ctx.answer);
      return 'ok';
    },
  });
  const scripted = scriptedAgent(
    () => ({ message: 'Deploy', tools: [remember, chooseAccount] }),
    [
      { toolCalls: [{ id: 'c_token', name: 'remember_token', arguments: {} }] },
      { toolCalls: [{ id: 'c_account', name: 'choose_account', arguments: {} }] },
      { text: 'Deployed.' },
    ],
    { onInputRequest: options.onInputRequest ?? [] },
  );
  return { ...scripted, picked };
}

describe('a question asked after a secret', () => {
  it('is scrubbed in its prompt, option labels and values, schema and metadata wherever it goes; the option picked reaches the tool as offered', async () => {
    const notified: InputRequestJSON[] = [];
    const { agent, runtime, picked } = deployAgent({
      onInputRequest: [(requests) => notified.push(...requests.map((request) => request.toJSON()))],
    });
    const asked = await agent.handle({}).generateNow();
    const streamed: unknown[] = [];
    const stream = agent
      .handle({})
      .resumeStream({ checkpoint: throughJson(asked.checkpoint), answers: { c_token: TOKEN } });
    for await (const part of stream) streamed.push(part);
    const again = await stream.response;
    expect(again.status).toBe('awaiting_input');
    const [request] = again.inputRequests;
    expect(request?.toJSON()).toEqual({
      kind: 'choice',
      prompt: 'Deploy as [FILTERED] or as the bot?',
      options: [
        { value: '[FILTERED] option 1', label: 'the account of [FILTERED]' },
        { value: '[FILTERED] option 2', label: 'the bot' },
        { value: 'nobody', label: 'nobody' },
      ],
      schema: { description: 'one of the accounts for [FILTERED]', examples: ['[FILTERED]'] },
      metadata: { token_hex: '[FILTERED]', kept: 'plain' },
      tool_call_id: 'c_account',
      tool_name: 'choose_account',
      arguments: {},
    });
    await expectRebuildMatches(runtime, again);
    const events = await runtime.bus.events(again.generationId);
    const stored = await runtime.bus.checkpoints.load(again.generationId);
    const everything = JSON.stringify([again.checkpoint, again.inputRequests, events, stored, streamed, notified]);
    expect(secretFormsIn(everything, TOKEN)).toEqual([]);
    expect(everything).toContain('[FILTERED] option 1');

    const done = await agent.handle({}).resumeNow({
      checkpoint: throughJson(again.checkpoint),
      answers: { c_account: '[FILTERED] option 2' },
    });
    expect(done.status).toBe('completed');
    expect(picked).toEqual([{ account: 'bot', via: TOKEN }]);
  });

  it('picking a scrubbed option is refused for a job (secret_in_job) and where the secrets are not held (secret_option), before anything runs', async () => {
    const { agent, runtime, picked } = deployAgent();
    const asked = await agent.handle({}).generateNow();
    const again = await agent
      .handle({})
      .resumeNow({ checkpoint: throughJson(asked.checkpoint), answers: { c_token: TOKEN } });
    const answers = { c_account: '[FILTERED] option 1' };
    const queued = await agent
      .handle({})
      .resumeLater({ checkpoint: throughJson(again.checkpoint), answers })
      .catch((error: unknown) => error as { code: string; message: string });
    expect(queued).toMatchObject({ code: 'secret_in_job', toolCallId: 'c_account' });
    // A plain option still goes in a job: only the scrubbed ones are held here.
    await expect(
      agent.handle({}).resumeLater({ checkpoint: throughJson(again.checkpoint), answers: { c_account: 'nobody' } }),
    ).resolves.toMatchObject({ generationId: again.generationId });

    // Another process starts without this generation's secrets: forgetting them here is the same state.
    releaseScrubber(again.generationId, true);
    const elsewhere = await agent
      .handle({})
      .resumeNow({ checkpoint: throughJson(again.checkpoint), answers })
      .then(
        () => ({ code: 'none', message: 'expected a refusal' }),
        (error: unknown) => error as { code: string; message: string },
      );
    expect(elsewhere).toMatchObject({ code: 'secret_option', toolCallId: 'c_account' });
    expect(elsewhere.message).toContain('choose_account');
    expect(picked).toEqual([]);
    // Nothing ran and the checkpoint is still there to answer another way.
    expect(await canResume(runtime, again.checkpoint as Checkpoint)).toBe(true);
    const declined = await agent
      .handle({})
      .resumeNow({ checkpoint: throughJson(again.checkpoint), answers: { c_account: false } });
    expect(declined.status).toBe('completed');
  });
});

describe('a scrubbed option', () => {
  it('keeps its real value when the question is scrubbed again, even for a secret found in the placeholder', () => {
    for (const secret of ['option', 'FILTERED', 'confirm']) {
      const scrubber = new Scrubber();
      scrubber.add(secret);
      const asked = { kind: 'choice' as const, prompt: 'Which?', options: [secret, 'other'], tool_call_id: 'c_1' };
      const once = scrubber.inputRequest(asked);
      const twice = scrubber.inputRequest(once);
      expect(twice.options, secret).toEqual(['[FILTERED] option 1', 'other']);
      expect(scrubber.heldOption('c_1', '[FILTERED] option 1'), secret).toEqual({ value: secret });
    }
  });
});

describe('a follow-up schema', () => {
  it('keeps its vocabulary (types, lengths, formats) and scrubs what can carry a secret, names in properties and required alike', () => {
    const scrubber = new Scrubber();
    scrubber.add('5');
    scrubber.add('string');
    scrubber.add('field-7f3a9c');
    const schema = {
      type: 'object',
      properties: {
        code: { type: 'string', maxLength: 5, description: '5', enum: ['5', 'string', 'x'] },
        'field-7f3a9c': { type: 'integer', minimum: 5, title: 'named field-7f3a9c' },
      },
      required: ['code', 'field-7f3a9c'],
      additionalProperties: false,
    };
    const scrubbed = scrubSchema(scrubber, schema);
    expect(scrubbed).toEqual({
      type: 'object',
      properties: {
        code: { type: 'string', maxLength: 5, description: '[FILTERED]', enum: ['[FILTERED]', '[FILTERED]', 'x'] },
        '[FILTERED]': { type: 'integer', minimum: 5, title: 'named [FILTERED]' },
      },
      required: ['code', '[FILTERED]'],
      additionalProperties: false,
    });
    // Still a schema an answer can be checked with.
    expect(
      z.fromJSONSchema(scrubbed as Parameters<typeof z.fromJSONSchema>[0]).safeParse({ code: 'x', '[FILTERED]': 9 })
        .success,
    ).toBe(true);
  });
});
