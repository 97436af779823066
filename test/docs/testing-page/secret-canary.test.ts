import { memoryBus } from '@interlude/bus';
import { createRuntime, defineAgent, InputRequest, tool } from '@interlude/core';
import { scriptedProvider, secretFormsIn, secretInEveryForm } from '@interlude/core/testing';
import { expect, it } from 'vitest';
import { z } from 'zod';

// A value that appears nowhere else, so finding it anywhere is a leak.
const CANARY = 'canary-7f3a9c21-pin';

it('keeps a secret answer out of the model, the events and the checkpoint', async () => {
  const verifyIdentity = tool({
    name: 'verify_identity',
    description: 'Check the customer PIN',
    input: z.object({ customer_id: z.number() }),
    async run(_input, ctx) {
      if (ctx.answer === undefined) return InputRequest.secret('Customer PIN?');
      // A careless tool: it hands the secret back in every form it could be written in.
      return secretInEveryForm(String(ctx.answer));
    },
  });
  const model = scriptedProvider([
    { toolCalls: [{ id: 'call_verify', name: 'verify_identity', arguments: { customer_id: 7 } }] },
    { text: 'Verified.' },
  ]);
  const runtime = createRuntime({ bus: memoryBus() });
  const support = defineAgent({
    name: 'support',
    runtime,
    provider: model,
    actions: { handle: () => ({ message: 'Verify customer 7', tools: [verifyIdentity] }) },
  });

  const paused = await support.handle().generateNow();
  // runtime.answer() resumes here; answerLater() would store the answer in a job, so it refuses secrets.
  const done = await runtime.answer(paused.generationId, { call_verify: CANARY });

  expect(done.text).toBe('Verified.');
  const seen = {
    model: model.requests,
    events: await runtime.bus.events(paused.generationId),
    checkpoint: await runtime.bus.checkpoints.load(paused.generationId),
    response: done,
  };
  for (const [where, value] of Object.entries(seen)) {
    expect(secretFormsIn(JSON.stringify(value), CANARY), where).toEqual([]);
  }
  await runtime.close();
});
