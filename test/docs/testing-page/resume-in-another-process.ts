import { randomUUID } from 'node:crypto';
import { natsBus } from '@interlude/bus';
import { createRuntime, defineAgent, InputRequest, tool } from '@interlude/core';
import { anthropic } from '@interlude/providers/anthropic';
import { startScriptedModel } from '@interlude/providers/testing';
import { afterAll, expect, it } from 'vitest';
import { z } from 'zod';

// Stateless: it reads the turn from the conversation each request carries, so every process shares it.
const model = await startScriptedModel([
  { toolUses: [{ id: 'toolu_refund', name: 'issue_refund', input: { order_id: 42, amount: 30 } }] },
  { text: 'I refunded $30 on order 42.' },
]);
afterAll(() => model.close());

const refunds: number[] = [];
const issueRefund = tool({
  name: 'issue_refund',
  description: 'Refund part of an order',
  input: z.object({ order_id: z.number(), amount: z.number() }),
  async run({ order_id, amount }, ctx) {
    if (ctx.answer === undefined) return InputRequest.confirm(`Refund $${amount} on order ${order_id}?`);
    refunds.push(amount);
    return { refunded: amount };
  },
});

/** What each process does at its start: a runtime of its own on the same NATS, and the same agent. */
function startProcess(prefix: string) {
  const runtime = createRuntime({
    bus: natsBus({ servers: process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222', prefix }),
    checkpointKey: 'testing-page-checkpoint-key-0123456789', // as INTERLUDE_CHECKPOINT_KEY, the same everywhere
  });
  const support = defineAgent({
    name: 'support',
    runtime,
    provider: anthropic({ model: 'claude-sonnet-5-5', baseURL: model.url, apiKey: 'test', maxRetries: 0 }),
    actions: { handle: () => ({ message: 'Refund order 42', tools: [issueRefund] }) },
  });
  return { runtime, support };
}

it('pauses in one process and resumes in another', async () => {
  const prefix = `t${randomUUID().slice(0, 8)}`; // streams and subjects of this test only
  const first = startProcess(prefix);
  const paused = await first.support.handle().generateNow();
  await first.runtime.close(); // the first process is gone

  const second = startProcess(prefix);
  const done = await second.runtime.answer(paused.generationId, { toolu_refund: true });
  expect(done.text).toBe('I refunded $30 on order 42.');
  expect(refunds).toEqual([30]);
  await second.runtime.close();
});
