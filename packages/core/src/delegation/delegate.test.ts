import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineAgent } from '../agent/define-agent.js';
import { InputRequiredError } from '../errors/input-required-error.js';
import { InputRequest } from '../input-request/input-request.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { createRefundScenario } from '../testing/refund-fixture.js';
import { scriptedProvider } from '../testing/scripted-provider.js';
import { tool } from '../tool/tool.js';
import { delegate } from './delegate.js';

function managerAndBilling(onExceeded: 'return' | 'raise') {
  const runtime = createRuntime();
  const scenario = createRefundScenario();
  const childCallbacks: string[] = [];
  const billing = defineAgent({
    name: 'billing',
    runtime,
    provider: scriptedProvider(scenario.replies),
    actions: { refund: ({ ticketId }: { ticketId: number }) => scenario.action({ ticketId }) },
    onInputRequest: [() => void childCallbacks.push('billing asked')],
  });
  const parentProvider = scriptedProvider([
    { toolCalls: [{ id: 'call_billing', name: 'billing_refund', arguments: { ticketId: 42 } }] },
    { text: 'Billing needs a person to approve the refund.' },
  ]);
  const manager = defineAgent({
    name: 'manager',
    runtime,
    provider: parentProvider,
    actions: {
      handle: () => ({
        message: 'Sort out ticket 42',
        tools: [
          delegate(billing, 'refund', {
            description: 'Ask billing to refund',
            input: z.object({ ticketId: z.number() }),
            onExceeded,
          }),
        ],
      }),
    },
  });
  return { runtime, scenario, childCallbacks, manager, parentProvider };
}

describe('delegation', () => {
  it('a child that asks gives the parent model an input_required result, and the parent finishes', async () => {
    const { runtime, scenario, childCallbacks, manager, parentProvider } = managerAndBilling('return');
    const published: string[] = [];
    await runtime.bus.subscribe({}, (event) => void published.push(`${event.agent}.${event.event}`));

    const done = await manager.handle().generateNow();

    expect(done.status).toBe('completed');
    expect(done.text).toBe('Billing needs a person to approve the refund.');
    const result = parentProvider.requests[1]?.messages.at(-1) as { content: Array<{ content: string }> };
    expect(JSON.parse(result.content[0]?.content ?? '{}')).toEqual({
      error: 'input_required',
      questions: [
        {
          kind: 'confirm',
          prompt: 'Refund $30 on order 42?',
          tool_call_id: 'call_refund',
          tool_name: 'issue_refund',
          arguments: { order_id: 42, amount: 30 },
        },
      ],
      message: 'billing needs answers it cannot ask for from here: Refund $30 on order 42?',
    });
    expect(childCallbacks).toEqual([]);
    expect(scenario.runs.issue_refund).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(published).not.toContain('billing.input_requested');
    expect(published).toContain('billing.started');
  });

  it("under onExceeded: 'raise' the parent throws InputRequiredError naming the tool that asked", async () => {
    const { manager, childCallbacks } = managerAndBilling('raise');
    const error = await manager
      .handle()
      .generateNow()
      .then(
        () => undefined,
        (caught: unknown) => caught as InputRequiredError,
      );
    expect(InputRequiredError.isInstance(error)).toBe(true);
    expect(error?.message).toContain('issue_refund');
    expect(error?.toolName).toBe('billing_refund');
    expect(childCallbacks).toEqual([]);
  });

  it('a nested generation never reads its parent answer', async () => {
    const runtime = createRuntime();
    const seenByChild: unknown[] = [];
    const childTool = tool({
      name: 'peek',
      description: 'Peek',
      input: z.object({}),
      run: (_, ctx) => {
        seenByChild.push(
          ctx.answer,
          InputRequest.answerFor('call_parent'),
          InputRequest.answerFor(InputRequest.currentToolCallId()),
        );
        return 'peeked';
      },
    });
    const child = defineAgent({
      name: 'child',
      runtime,
      provider: scriptedProvider([
        { toolCalls: [{ id: 'call_child', name: 'peek', arguments: {} }] },
        { text: 'child done' },
      ]),
      actions: { look: () => ({ message: 'look', tools: [childTool] }) },
    });
    const askThenDelegate = tool({
      name: 'ask_then_delegate',
      description: 'Ask, then delegate',
      input: z.object({}),
      async run(_, ctx) {
        if (ctx.answer === undefined) return InputRequest.text('Secret plan?');
        return child.look().generateNow();
      },
    });
    const parent = defineAgent({
      name: 'parent',
      runtime,
      provider: scriptedProvider([
        { toolCalls: [{ id: 'call_parent', name: 'ask_then_delegate', arguments: {} }] },
        { text: 'ok' },
      ]),
      actions: { handle: () => ({ message: 'go', tools: [askThenDelegate] }) },
    });
    const paused = await parent.handle().generateNow();
    await parent.handle().resumeNow({ checkpoint: paused.checkpoint, answers: { call_parent: 'parent-only answer' } });
    expect(seenByChild).toEqual([undefined, undefined, undefined]);
  });

  it('a delegation can be gated by requiresApproval', async () => {
    const { runtime, scenario } = managerAndBilling('return');
    const billing = runtime.agents.get('billing');
    if (billing === undefined) throw new Error('billing not registered');
    const gatedProvider = scriptedProvider([
      { toolCalls: [{ id: 'call_billing', name: 'billing_refund', arguments: { ticketId: 42 } }] },
    ]);
    const gatedManager = defineAgent({
      name: 'gated_manager',
      runtime,
      provider: gatedProvider,
      actions: {
        handle: () => ({
          message: 'x',
          tools: [delegate(billing, 'refund', { description: 'Billing' })],
          requiresApproval: 'billing_refund',
        }),
      },
    });
    const paused = await gatedManager.handle().generateNow();
    expect(paused.inputRequests[0]?.prompt).toBe('Allow billing_refund to run?');
    expect(scenario.runs.lookup_order).toBe(0);
  });
});
