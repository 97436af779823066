import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InputRequest } from '../input-request/input-request.js';
import { expectRebuildMatches, scriptedAgent, throughJson } from '../test-support/harness.js';
import { tool } from './tool.js';

function closeAccountTool(log: unknown[]) {
  return tool({
    name: 'close_account',
    description: 'Close a customer account',
    input: z.object({ account_id: z.number() }),
    run({ account_id }, ctx) {
      log.push(ctx.answer);
      return { closed: account_id };
    },
  });
}

const closeCall = { toolCalls: [{ id: 'call_close', name: 'close_account', arguments: { account_id: 5 } }] };

describe('approval gates', () => {
  it('pauses a gated call before it runs, then runs it once with no answer when approved', async () => {
    const answersSeen: unknown[] = [];
    const { agent, provider, runtime } = scriptedAgent(
      () => ({
        message: 'Close account 5',
        tools: [closeAccountTool(answersSeen)],
        requiresApproval: ['close_account'],
      }),
      [closeCall, { text: 'Closed.' }],
    );
    const paused = await agent.handle({}).generateNow();

    expect(answersSeen).toEqual([]);
    expect(paused.inputRequests.map((request) => request.toJSON())).toEqual([
      {
        kind: 'confirm',
        prompt: 'Allow close_account to run?',
        metadata: { approval: true },
        tool_call_id: 'call_close',
        tool_name: 'close_account',
        arguments: { account_id: 5 },
      },
    ]);
    expect(paused.checkpoint?.approval_tool_calls).toEqual(['call_close']);
    expect(JSON.stringify(provider.requests)).not.toContain('requiresApproval');
    await expectRebuildMatches(runtime, paused);

    const done = await agent
      .handle({})
      .resumeNow({ checkpoint: throughJson(paused.checkpoint), answers: { call_close: true } });
    expect(done.text).toBe('Closed.');
    expect(answersSeen).toEqual([undefined]);
  });

  it('declining an approval never runs the tool', async () => {
    const answersSeen: unknown[] = [];
    const { agent, provider } = scriptedAgent(
      () => ({ message: 'Close', tools: [closeAccountTool(answersSeen)], requiresApproval: 'close_account' }),
      [closeCall, { text: 'Not closed.' }],
    );
    const paused = await agent.handle({}).generateNow();
    await agent.handle({}).resumeNow({ checkpoint: paused.checkpoint, answers: { call_close: false } });
    expect(answersSeen).toEqual([]);
    expect(JSON.stringify(provider.requests[1]?.messages.at(-1))).toContain('declined by user');
  });

  it('a gated tool that asks its own secret after approval is not gated again', async () => {
    const seen: unknown[] = [];
    const deploy = tool({
      name: 'deploy',
      description: 'Deploy a service',
      input: z.object({ service: z.string() }),
      run({ service }, ctx) {
        seen.push(ctx.answer);
        if (ctx.answer === undefined) return InputRequest.secret(`Deploy token for ${service}?`);
        return { deployed: service };
      },
    });
    const { agent, runtime } = scriptedAgent(
      () => ({ message: 'Deploy api', tools: [deploy], requiresApproval: ['deploy'] }),
      [{ toolCalls: [{ id: 'call_deploy', name: 'deploy', arguments: { service: 'api' } }] }, { text: 'Deployed.' }],
    );
    const approval = await agent.handle({}).generateNow();
    const secretAsk = await agent
      .handle({})
      .resumeNow({ checkpoint: throughJson(approval.checkpoint), answers: { call_deploy: true } });

    expect(secretAsk.inputRequests.map((request) => request.kind)).toEqual(['secret']);
    expect(secretAsk.checkpoint?.approved_tool_calls).toEqual(['call_deploy']);
    expect(secretAsk.checkpoint?.approval_tool_calls).toBeUndefined(); // none: left out
    await expectRebuildMatches(runtime, secretAsk);

    const done = await agent
      .handle({})
      .resumeNow({ checkpoint: throughJson(secretAsk.checkpoint), answers: { call_deploy: 'tok-123' } });
    expect(done.text).toBe('Deployed.');
    expect(seen).toEqual([undefined, 'tok-123']);
  });

  it('an approval holds when the resumed action no longer gates the tool', async () => {
    const answersSeen: unknown[] = [];
    let gated = true;
    const { agent } = scriptedAgent(
      () => ({
        message: 'Close',
        tools: [closeAccountTool(answersSeen)],
        requiresApproval: gated ? ['close_account'] : ['other_tool'],
      }),
      [closeCall, { text: 'Closed.' }],
    );
    const paused = await agent.handle({}).generateNow();
    gated = false;
    const done = await agent
      .handle({})
      .resumeNow({ checkpoint: throughJson(paused.checkpoint), answers: { call_close: true } });
    expect(done.text).toBe('Closed.');
    expect(answersSeen).toEqual([undefined]);
  });

  for (const [label, value] of [
    ['true', true],
    ['a map', { close_account: true }],
    ['a number', 3],
    ['an array with a non-name', ['close_account', 7]],
  ] as const) {
    it(`requiresApproval as ${label} is a TypeError before any request`, async () => {
      const { agent, provider } = scriptedAgent(
        () => ({ message: 'Close', tools: [closeAccountTool([])], requiresApproval: value as never }),
        [closeCall],
      );
      await expect(agent.handle({}).generateNow()).rejects.toThrow(TypeError);
      await expect(agent.handle({}).generateLater()).rejects.toThrow(TypeError);
      expect(provider.requests).toHaveLength(0);
    });
  }
});
