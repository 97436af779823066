import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { delegate } from '../delegation/delegate.js';
import { InputRequest } from '../input-request/input-request.js';
import { expectRebuildMatches, scriptedAgent, throughJson } from '../test-support/harness.js';
import type { RequiresApproval } from './approval-rule.js';
import { tool } from './tool.js';

const refundInput = z.object({ order_id: z.number(), amount: z.number() });

/** A refund tool that records each refund it makes; `own` is its own approval rule. */
function refundTool(refunds: number[], own?: Parameters<typeof tool<typeof refundInput>>[0]['requiresApproval']) {
  return tool({
    name: 'issue_refund',
    description: 'Refund part of an order',
    input: refundInput,
    ...(own !== undefined && { requiresApproval: own }),
    run({ amount }) {
      refunds.push(amount);
      return { refunded: amount };
    },
  });
}

const refundCall = (id: string, amount: number) => ({
  id,
  name: 'issue_refund',
  arguments: { order_id: 42, amount },
});

const aboveHundred: RequiresApproval = {
  tool: 'issue_refund',
  when: ({ amount }: { amount: number }) => amount > 100,
  prompt: ({ amount, order_id }: { amount: number; order_id: number }) => `Refund $${amount} on order ${order_id}?`,
};

describe('approval rules', () => {
  it('a when on the arguments lets $40 through and stops $400, asking with a prompt that names the amount', async () => {
    const refunds: number[] = [];
    const { agent, runtime } = scriptedAgent(
      () => ({ message: 'Refund', tools: [refundTool(refunds)], requiresApproval: [aboveHundred] }),
      [{ toolCalls: [refundCall('call_small', 40), refundCall('call_large', 400)] }, { text: 'Done.' }],
    );
    const paused = await agent.handle({}).generateNow();

    expect(refunds).toEqual([40]);
    expect(paused.inputRequests.map((request) => request.toJSON())).toEqual([
      {
        kind: 'confirm',
        prompt: 'Refund $400 on order 42?',
        metadata: { approval: true },
        tool_call_id: 'call_large',
        tool_name: 'issue_refund',
        arguments: { order_id: 42, amount: 400 },
      },
    ]);
    expect(paused.checkpoint?.approval_tool_calls).toEqual(['call_large']);
    await expectRebuildMatches(runtime, paused);

    const done = await agent
      .handle({})
      .resumeNow({ checkpoint: throughJson(paused.checkpoint), answers: { call_large: true } });
    expect(done.text).toBe('Done.');
    expect(refunds).toEqual([40, 400]);
  });

  it("uses a tool's own rule, and an action's rule for the tool replaces it", async () => {
    const ownRule = { when: ({ amount }: { amount: number }) => amount > 10, prompt: () => 'Own rule?' };
    for (const [label, requiresApproval, expected] of [
      ['no action rule', undefined, ['Own rule?']],
      ['an action rule', { tool: 'issue_refund', when: () => false }, []],
      ['a plain name', 'issue_refund', ['Allow issue_refund to run?']],
    ] as const) {
      const refunds: number[] = [];
      const { agent } = scriptedAgent(
        () => ({
          message: 'Refund',
          tools: [refundTool(refunds, ownRule)],
          ...(requiresApproval !== undefined && { requiresApproval }),
        }),
        [{ toolCalls: [refundCall('call_refund', 50)] }, { text: 'Done.' }],
      );
      const response = await agent.handle({}).generateNow();
      expect(
        response.inputRequests.map((request) => request.prompt),
        label,
      ).toEqual(expected);
      expect(refunds, label).toEqual(expected.length === 0 ? [50] : []);
    }
  });

  it('records a call its rule let through, so a resume keeps the decision without asking the rule again', async () => {
    let limit = 100;
    const whenCalls: number[] = [];
    const seen: unknown[] = [];
    const refund = tool({
      name: 'issue_refund',
      description: 'Refund part of an order',
      input: refundInput,
      run({ amount }, ctx) {
        seen.push(ctx.answer);
        if (ctx.answer === undefined) return InputRequest.text(`Reason for the $${amount} refund?`);
        return { refunded: amount };
      },
    });
    const { agent, runtime } = scriptedAgent(
      () => ({
        message: 'Refund',
        tools: [refund],
        requiresApproval: {
          tool: 'issue_refund',
          when: ({ amount }: { amount: number }) => {
            whenCalls.push(amount);
            return amount > limit;
          },
        },
      }),
      [{ toolCalls: [refundCall('call_refund', 50)] }, { text: 'Done.' }],
    );
    const asked = await agent.handle({}).generateNow();
    expect(asked.inputRequests.map((request) => request.prompt)).toEqual(['Reason for the $50 refund?']);
    expect(asked.checkpoint?.approved_tool_calls).toEqual(['call_refund']);
    await expectRebuildMatches(runtime, asked);

    // The limit drops before the answer comes: the call already went through its gate.
    limit = 10;
    const done = await agent
      .handle({})
      .resumeNow({ checkpoint: throughJson(asked.checkpoint), answers: { call_refund: 'damaged' } });
    expect(done.status).toBe('completed');
    expect(seen).toEqual([undefined, 'damaged']);
    expect(whenCalls).toEqual([50]);
  });

  it('an async when is awaited', async () => {
    const refunds: number[] = [];
    const { agent } = scriptedAgent(
      () => ({
        message: 'Refund',
        tools: [refundTool(refunds)],
        requiresApproval: { tool: 'issue_refund', when: async ({ amount }: { amount: number }) => amount > 100 },
      }),
      [{ toolCalls: [refundCall('call_large', 400)] }],
    );
    const paused = await agent.handle({}).generateNow();
    expect(paused.inputRequests.map((request) => request.prompt)).toEqual(['Allow issue_refund to run?']);
    expect(refunds).toEqual([]);
  });

  it('a rule that throws or answers neither true nor false fails its call: the body never runs', async () => {
    for (const [label, rule, message] of [
      [
        'throws',
        {
          tool: 'issue_refund',
          when: () => {
            throw new Error('limits unavailable');
          },
        },
        'The approval rule for issue_refund failed: limits unavailable',
      ],
      ['not a boolean', { tool: 'issue_refund', when: () => 'yes' as never }, 'must return true or false'],
      ['an empty prompt', { tool: 'issue_refund', prompt: () => '' }, 'must be a non-empty string'],
    ] as const) {
      const refunds: number[] = [];
      const { agent, provider } = scriptedAgent(
        () => ({ message: 'Refund', tools: [refundTool(refunds)], requiresApproval: rule }),
        [{ toolCalls: [refundCall('call_refund', 400)] }, { text: 'Could not refund.' }],
      );
      const done = await agent.handle({}).generateNow();
      expect(done.status, label).toBe('completed');
      expect(refunds, label).toEqual([]);
      expect(JSON.stringify(provider.requests[1]?.messages.at(-1)), label).toContain(message);
    }
  });

  it('a call whose arguments the tool refuses is not gated: the model reads the parse error at once', async () => {
    const refunds: number[] = [];
    const { agent, provider } = scriptedAgent(
      () => ({ message: 'Refund', tools: [refundTool(refunds)], requiresApproval: [aboveHundred] }),
      [
        { toolCalls: [{ id: 'call_bad', name: 'issue_refund', arguments: { amount: 'lots' } }] },
        { text: 'Bad input.' },
      ],
    );
    const done = await agent.handle({}).generateNow();
    expect(done.status).toBe('completed');
    expect(JSON.stringify(provider.requests[1]?.messages.at(-1))).toContain('Invalid arguments for issue_refund');
  });

  for (const [label, value] of [
    ['a rule without a tool', { when: () => true }],
    ['a when that is not a function', { tool: 'issue_refund', when: true }],
    ['a prompt that is not a function', { tool: 'issue_refund', prompt: 'Refund?' }],
    ['a tool named twice', ['issue_refund', { tool: 'issue_refund', when: () => true }]],
  ] as const) {
    it(`requiresApproval with ${label} is a TypeError before any request`, async () => {
      const { agent, provider } = scriptedAgent(
        () => ({ message: 'Refund', tools: [refundTool([])], requiresApproval: value as never }),
        [{ toolCalls: [refundCall('call_refund', 400)] }],
      );
      await expect(agent.handle({}).generateNow()).rejects.toThrow(TypeError);
      await expect(agent.handle({}).generateLater()).rejects.toThrow(TypeError);
      expect(provider.requests).toHaveLength(0);
    });
  }

  it("a tool's own rule of the wrong shape is a TypeError where the tool is defined", () => {
    expect(() => refundTool([], { when: 'always' } as never)).toThrow(/when in requiresApproval of tool issue_refund/);
    expect(() => refundTool([], 'yes' as never)).toThrow(/must be true, false or \{ when\?, prompt\? \}/);
  });
});

describe('a delegation with a gate of its own', () => {
  it('asks with its own prompt and deadline before the delegated agent runs', async () => {
    const childRuns: unknown[] = [];
    const payments = scriptedAgent(
      (params: unknown) => {
        childRuns.push(params);
        return { message: 'Pay' };
      },
      [{ text: 'Paid.' }, { text: 'Paid.' }],
      { name: 'payments' },
    );
    const pay = delegate(payments.agent, 'handle', {
      description: 'Ask payments to pay out',
      input: z.object({ amount: z.number() }),
      requiresApproval: { when: ({ amount }) => amount >= 100, prompt: ({ amount }) => `Pay out $${amount}?` },
      approvalExpiry: { expiresIn: 60_000 },
    });
    const { agent } = scriptedAgent(
      () => ({ message: 'Pay the customer', tools: [pay] }),
      [
        {
          toolCalls: [
            { id: 'call_small', name: 'payments_handle', arguments: { amount: 20 } },
            { id: 'call_large', name: 'payments_handle', arguments: { amount: 250 } },
          ],
        },
        { text: 'Both paid.' },
      ],
    );
    const paused = await agent.handle({}).generateNow();
    expect(childRuns).toEqual([{ amount: 20 }]);
    const [question] = paused.inputRequests;
    expect(question?.prompt).toBe('Pay out $250?');
    expect(question?.expiresAt).toBeInstanceOf(Date);
    expect(paused.checkpoint?.approval_tool_calls).toEqual(['call_large']);

    const done = await agent
      .handle({})
      .resumeNow({ checkpoint: throughJson(paused.checkpoint), answers: { call_large: true } });
    expect(done.text).toBe('Both paid.');
    expect(childRuns).toEqual([{ amount: 20 }, { amount: 250 }]);
  });
});
