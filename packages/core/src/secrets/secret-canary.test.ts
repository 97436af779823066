import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InputRequest } from '../input-request/input-request.js';
import { expectRebuildMatches, scriptedAgent, throughJson } from '../test-support/harness.js';
import { tool } from '../tool/tool.js';
import { Scrubber } from './scrub.js';
import { ScrubbedError, scrubError } from './scrubbed-error.js';

const CANARY = 'CANARY-7f3a9c-secret';

function deployTools() {
  const deploy = tool({
    name: 'deploy',
    description: 'Deploy with a token',
    input: z.object({ service: z.string() }),
    run({ service }, ctx) {
      if (ctx.answer === undefined) return InputRequest.secret(`Token for ${service}?`);
      return { deployed: service, token_used: ctx.answer, note: `used ${String(ctx.answer)} for ${service}` };
    },
  });
  const verify = tool({
    name: 'verify',
    description: 'Verify a deploy',
    input: z.object({}),
    run() {
      throw new Error(`verification failed for token ${CANARY}`, { cause: new Error(`upstream saw ${CANARY}`) });
    },
  });
  const confirm = tool({
    name: 'confirm_done',
    description: 'Ask to confirm',
    input: z.object({}),
    run: (_, ctx) => (ctx.answer === undefined ? InputRequest.confirm('All good?') : 'ok'),
  });
  return [deploy, verify, confirm];
}

describe('secret answers', () => {
  it('a canary secret reaches its tool and shows up in no model request, event, checkpoint or error', async () => {
    const { agent, provider, runtime } = scriptedAgent(
      () => ({ message: 'Deploy api', tools: deployTools() }),
      [
        { toolCalls: [{ id: 'c_deploy', name: 'deploy', arguments: { service: 'api' } }] },
        {
          toolCalls: [
            { id: 'c_verify', name: 'verify', arguments: {} },
            { id: 'c_confirm', name: 'confirm_done', arguments: {} },
          ],
        },
        () => {
          throw new Error(`the provider echoed ${CANARY}`);
        },
      ],
    );
    const asked = await agent.handle({}).generateNow();
    await expectRebuildMatches(runtime, asked);
    const second = await agent
      .handle({})
      .resumeNow({ checkpoint: throughJson(asked.checkpoint), answers: { c_deploy: CANARY } });
    await expectRebuildMatches(runtime, second);
    const failure = await agent
      .handle({})
      .resumeNow({ checkpoint: throughJson(second.checkpoint), answers: { c_confirm: true } })
      .then(
        () => new Error('expected the resume to fail'),
        (error: unknown) => error as Error,
      );

    const deployResult = provider.requests[1]?.messages.at(-1);
    expect(deployResult).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'c_deploy',
          content: '{"deployed":"api","token_used":"[FILTERED]","note":"used [FILTERED] for api"}',
        },
      ],
    });
    expect(JSON.stringify(second.checkpoint?.completed_results['c_verify'])).toContain(
      'verification failed for token [FILTERED]',
    );
    expect(failure).toBeInstanceOf(Error);
    expect(failure.message).toBe('the provider echoed [FILTERED]');

    const events = await runtime.bus.events(asked.generationId);
    expect(events.map((event) => event.event)).toContain('failed');
    const everything = JSON.stringify([
      provider.requests,
      events,
      asked.checkpoint,
      second.checkpoint,
      failure.message,
      failure.stack,
    ]);
    expect(everything).not.toContain(CANARY);
    expect(everything).toContain('[FILTERED]');
  });

  it.each<[string | number, unknown[]]>([
    ['confirm', ['[FILTERED] option 1', { value: 2, label: 'c_pin or [FILTERED]' }]],
    ['c_pin', ['confirm', { value: 2, label: '[FILTERED] or confirm' }]],
    ['pick_shipping', ['confirm', { value: 2, label: 'c_pin or confirm' }]],
    [2, ['confirm', { value: '[FILTERED] option 2', label: 'c_pin or confirm' }]],
    ['stop', ['confirm', { value: 2, label: 'c_pin or confirm' }]],
  ])(
    'a secret equal to a kind, a call id, an option, a counter or a finish reason (%s) leaves the next pause readable and answerable',
    async (secret, shownOptions) => {
      // A person may type anything as a PIN, including words the framework uses itself.
      const pinTool = tool({
        name: 'verify_pin',
        description: 'Check a PIN',
        input: z.object({}),
        run: (_, ctx) => (ctx.answer === undefined ? InputRequest.secret('PIN?') : 'verified'),
      });
      const picked: unknown[] = [];
      const shipping = tool({
        name: 'pick_shipping',
        description: 'Pick shipping',
        input: z.object({ note: z.string() }),
        run: (_, ctx) => {
          if (ctx.answer === undefined) {
            return InputRequest.choice('Ship how? (not confirm)', {
              options: ['confirm', { value: 2, label: 'c_pin or confirm' }],
            });
          }
          picked.push(ctx.answer);
          return { shipped: ctx.answer };
        },
      });
      const { agent, runtime } = scriptedAgent(
        () => ({ message: 'Ship it', tools: [pinTool, shipping] }),
        [
          { toolCalls: [{ id: 'c_pin', name: 'verify_pin', arguments: {} }] },
          { toolCalls: [{ id: 'c_ship', name: 'pick_shipping', arguments: { note: 'confirm' } }] },
          { text: 'done' },
        ],
      );
      const asked = await agent.handle({}).generateNow();
      const again = await agent
        .handle({})
        .resumeNow({ checkpoint: throughJson(asked.checkpoint), answers: { c_pin: secret } });
      expect(again.status).toBe('awaiting_input');
      const [request] = again.inputRequests;
      expect(request?.kind).toBe('choice');
      expect(request?.toolCallId).toBe('c_ship');
      expect(request?.toolName).toBe('pick_shipping');
      // An option value equal to the secret shows as a placeholder; labels are scrubbed like any text.
      expect(request?.options).toEqual(shownOptions);
      expect(request?.prompt).not.toContain(String(secret));
      // Scrubbed in place: the stored request keeps the key order `toJSON()` writes.
      expect(Object.keys(again.checkpoint?.input_requests[0] ?? {})).toEqual(Object.keys(request?.toJSON() ?? {}));
      await expectRebuildMatches(runtime, again);
      const requested = (await runtime.bus.events(again.generationId)).filter(
        (event) => event.event === 'input_requested',
      );
      expect(requested.at(-1)?.data).toMatchObject({ input_requests: [{ kind: 'choice', tool_call_id: 'c_ship' }] });
      // The person picks the first option as shown; the tool gets the value it offered.
      const done = await agent
        .handle({})
        .resumeNow({ checkpoint: throughJson(again.checkpoint), answers: { c_ship: shownOptions[0] } });
      expect(done.status).toBe('completed');
      expect(picked).toEqual(['confirm']);
      const completed = (await runtime.bus.events(again.generationId)).find((event) => event.event === 'completed');
      expect(completed?.data).toMatchObject({ text: 'done', finish_reason: 'stop' });
    },
  );

  it('a one-character secret leaves the order id, the amount and the dates the model reads intact', async () => {
    const verifyPin = tool({
      name: 'verify_pin',
      description: 'Check the PIN, then read the order',
      input: z.object({ order_id: z.number() }),
      run: ({ order_id }, ctx) =>
        ctx.answer === undefined
          ? InputRequest.secret('PIN?')
          : { order_id, amount: 10.5, ordered: '2025-01-05', shipped_at: '2025-01-07T10:15:00Z', pin: ctx.answer },
    });
    const { agent, provider, runtime } = scriptedAgent(
      () => ({ message: 'Where is order 1042?', tools: [verifyPin] }),
      [{ toolCalls: [{ id: 'c_pin', name: 'verify_pin', arguments: { order_id: 1042 } }] }, { text: 'It shipped.' }],
    );
    const asked = await agent.handle({}).generateNow();
    await agent.handle({}).resumeNow({ checkpoint: throughJson(asked.checkpoint), answers: { c_pin: '1' } });
    const toolResult = provider.requests[1]?.messages.at(-1) as { content: Array<{ content: string }> };
    expect(JSON.parse(toolResult.content[0]?.content ?? '')).toEqual({
      order_id: 1042,
      amount: 10.5,
      ordered: '2025-01-05',
      shipped_at: '2025-01-07T10:15:00Z',
      pin: '[FILTERED]',
    });
    const completed = (await runtime.bus.events(asked.generationId)).find((event) => event.event === 'tool_completed');
    expect(completed?.data).toMatchObject({ result: { order_id: 1042, ordered: '2025-01-05', pin: '[FILTERED]' } });
  });

  it('an object secret: its keys reach neither the model nor the events, the keys its schema declares do', async () => {
    const keyCanary = 'device-7f3a9c-key';
    const valueCanary = 'token-7f3a9c-value';
    const saveKeys = tool({
      name: 'save_keys',
      description: 'Store API keys by device',
      input: z.object({}),
      run: (_, ctx) =>
        ctx.answer === undefined
          ? InputRequest.secret('Keys by device?', {
              schema: z.object({ owner: z.string(), keys: z.record(z.string(), z.string()) }),
            })
          : { saved: ctx.answer, devices: Object.keys((ctx.answer as { keys: object }).keys) },
    });
    const { agent, provider, runtime } = scriptedAgent(
      () => ({ message: 'Store my keys', tools: [saveKeys] }),
      [{ toolCalls: [{ id: 'c_keys', name: 'save_keys', arguments: {} }] }, { text: 'Stored.' }],
    );
    const asked = await agent.handle({}).generateNow();
    await agent.handle({}).resumeNow({
      checkpoint: throughJson(asked.checkpoint),
      answers: { c_keys: { owner: 'ada-lovelace', keys: { [keyCanary]: valueCanary } } },
    });
    const events = await runtime.bus.events(asked.generationId);
    const everything = JSON.stringify([provider.requests, events]);
    expect(everything).not.toContain(keyCanary);
    expect(everything).not.toContain(valueCanary);
    const completed = events.find((event) => event.event === 'tool_completed');
    expect(completed?.data).toMatchObject({
      result: { saved: { owner: '[FILTERED]', keys: { '[FILTERED]': '[FILTERED]' } }, devices: ['[FILTERED]'] },
    });
  });

  it('compares numbers in written form', () => {
    const scrubber = new Scrubber();
    scrubber.add(4921);
    expect(scrubber.value({ pin: 4921, text: 'pin is 4921', other: 12 })).toEqual({
      pin: '[FILTERED]',
      text: 'pin is [FILTERED]',
      other: 12,
    });
    const fromText = new Scrubber();
    fromText.add('4921');
    expect(fromText.value({ pin: 4921 })).toEqual({ pin: '[FILTERED]' });
  });

  it('an error whose copy still leaks becomes a ScrubbedError; a plain one becomes a scrubbed copy of the same class', () => {
    const scrubber = new Scrubber();
    scrubber.add(CANARY);
    const copy = scrubError(new RangeError(`bad ${CANARY}`, { cause: new Error(CANARY) }), scrubber);
    expect(copy).toBeInstanceOf(RangeError);
    expect(copy.message).toBe('bad [FILTERED]');
    expect((copy.cause as Error).message).toBe('[FILTERED]');

    class Leaky extends Error {
      get detail() {
        return CANARY;
      }
      override toString() {
        return this.detail;
      }
    }
    const leaky = new Leaky(`oops ${CANARY}`);
    Object.defineProperty(leaky, 'hidden', { get: () => CANARY, enumerable: true });
    const replaced = scrubError(leaky, scrubber);
    expect(ScrubbedError.isInstance(replaced)).toBe(true);
    expect(replaced.message).toBe('oops [FILTERED]');
    expect(JSON.stringify({ message: replaced.message, stack: replaced.stack })).not.toContain(CANARY);
  });

  it('resumeLater refuses a secret answer without repeating it', async () => {
    const { agent } = scriptedAgent(
      () => ({ message: 'Deploy api', tools: deployTools() }),
      [{ toolCalls: [{ id: 'c_deploy', name: 'deploy', arguments: { service: 'api' } }] }],
    );
    const asked = await agent.handle({}).generateNow();
    const error = await agent
      .handle({})
      .resumeLater({ checkpoint: asked.checkpoint, answers: { c_deploy: CANARY } })
      .then(
        () => ({ code: 'none', message: 'expected a refusal' }),
        (caught: unknown) => caught as { code: string; message: string },
      );
    expect(error.code).toBe('secret_in_job');
    expect(error.message).toContain('c_deploy');
    expect(error.message).not.toContain(CANARY);
  });
});
