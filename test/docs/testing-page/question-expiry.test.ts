import { memoryBus } from '@interlude/bus';
import { createRuntime, defineAgent, InputRequest, tool } from '@interlude/core';
import { scriptedProvider } from '@interlude/core/testing';
import { afterEach, expect, it, vi } from 'vitest';
import { z } from 'zod';

const DAY = 24 * 60 * 60 * 1000;
afterEach(() => vi.useRealTimers());

it('declines the refund when nobody answers within a day, without waiting a day', async () => {
  // Before the runtime exists: the memory bus arms deadlines with setTimeout and judges them by Date.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  const refunds: number[] = [];
  const issueRefund = tool({
    name: 'issue_refund',
    description: 'Refund part of an order',
    input: z.object({ amount: z.number() }),
    async run({ amount }, ctx) {
      if (ctx.answer === undefined) return InputRequest.confirm(`Refund $${amount}?`, { expiresIn: DAY });
      refunds.push(amount);
      return { refunded: amount };
    },
  });
  const model = scriptedProvider([
    { toolCalls: [{ id: 'call_refund', name: 'issue_refund', arguments: { amount: 30 } }] },
    { text: 'Nobody approved the refund in time.' },
  ]);
  const runtime = createRuntime({ bus: memoryBus() });
  const support = defineAgent({
    name: 'support',
    runtime,
    provider: model,
    actions: { handle: () => ({ message: 'Refund order 7', tools: [issueRefund] }) },
  });

  const paused = await support.handle().generateNow();
  expect(paused.inputRequests[0]?.expiresAt?.getTime()).toBe(Date.now() + DAY);
  await vi.advanceTimersByTimeAsync(DAY);

  const events = async () => (await runtime.bus.events(paused.generationId)).map((event) => event.event);
  await vi.waitFor(async () => expect(await events()).toContain('completed'));
  expect(await events()).toContain('input_expired');
  expect(refunds).toEqual([]); // the default onExpiry, 'decline': the tool did not run
  expect(JSON.stringify(model.requests[1]?.messages.at(-1))).toContain('no answer in time');
  await runtime.close();
});
