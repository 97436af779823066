import { natsBus } from '@interlude/bus';
import { uniqueId } from '@interlude/bus/testing';
import { createRuntime, defineAgent, InputRequest, ResumeError, tool } from '@interlude/core';
import { FILTERED } from '@interlude/core/internal';
import { scriptedProvider } from '@interlude/core/testing';
import { connect } from '@nats-io/transport-node';
import { describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { rawStoredEvents } from '../support/bus-raw-log.js';

const canary = 'canary-secret-7f3a9c';

describe('secret answers and the NATS bus', () => {
  it('are refused for background resumes without being echoed, and never published', async () => {
    const runtime = createRuntime({ bus: natsBus({ servers: inject('natsUrl') }) });
    const received: string[] = [];
    const listener = await connect({ servers: inject('natsUrl') });
    listener.subscribe('interlude.gen.>', { callback: (_error, message) => void received.push(message.string()) });
    await listener.flush();

    const setPassword = tool({
      name: 'set_password',
      description: 'Set the account password',
      input: z.object({ account: z.string() }),
      async run({ account }, context) {
        if (context.answer === undefined) return InputRequest.secret(`New password for ${account}?`);
        return { account, password_set_to: context.answer };
      },
    });
    const accounts = defineAgent({
      name: 'accounts',
      runtime,
      provider: scriptedProvider([
        { toolCalls: [{ id: 'call_password', name: 'set_password', arguments: { account: 'ada' } }] },
        { text: 'The password is set.' },
      ]),
      actions: { reset: () => ({ message: 'Reset the password of ada', tools: [setPassword] }) },
    });
    const paused = await accounts.reset({}).generateNow();
    expect(paused.inputRequests[0]?.kind).toBe('secret');

    const queue = uniqueId('queue');
    const refused = await runtime
      .answerLater(paused.generationId, { call_password: canary }, { queue })
      .catch((error: unknown) => error);
    expect(ResumeError.isInstance(refused) && refused.code).toBe('secret_in_job');
    expect(String((refused as Error).message)).not.toContain(canary);
    const queued: string[] = [];
    const consumer = await runtime.bus.jobs.consume(queue, async (job) => void queued.push(job.id), { concurrency: 1 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await consumer.stop();
    expect(queued).toEqual([]);

    const done = await runtime.answer(paused.generationId, { call_password: canary });
    expect(done.status).toBe('completed');
    await listener.flush();
    const stored = await rawStoredEvents(inject('natsUrl'), paused.generationId);
    const toolCompleted = stored.map((text) => JSON.parse(text)).find((event) => event.event === 'tool_completed');
    expect(toolCompleted.data.result).toEqual({ account: 'ada', password_set_to: FILTERED });
    for (const text of [...stored, ...received]) expect(text).not.toContain(canary);
    expect(received.length).toBeGreaterThanOrEqual(stored.length);

    await listener.close();
    await runtime.close();
  });
});
