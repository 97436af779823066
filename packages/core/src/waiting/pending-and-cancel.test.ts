import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineAgent } from '../agent/define-agent.js';
import { InputRequest } from '../input-request/input-request.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { throughJson } from '../test-support/harness.js';
import { scriptedProvider } from '../testing/scripted-provider.js';
import { tool } from '../tool/tool.js';

/** Two agents on one runtime, each asking one question per generation; `ran` lists the answers their tools ran with. */
function desk(options: { expiresIn?: number } = {}) {
  const runtime = createRuntime();
  const ran: unknown[] = [];
  const ask = tool({
    name: 'ask',
    description: 'Ask a person',
    input: z.object({}),
    run(_, ctx) {
      if (ctx.answer === undefined) {
        return InputRequest.confirm(
          'Go ahead?',
          options.expiresIn === undefined ? {} : { expiresIn: options.expiresIn },
        );
      }
      ran.push(ctx.answer);
      return { done: true };
    },
  });
  // Asks on a generation's first call, ends on the call after its answer, whatever order generations run in.
  const reply = (request: { messages: unknown[] }) =>
    request.messages.length === 1 ? { toolCalls: [{ id: 'call_ask', name: 'ask', arguments: {} }] } : { text: 'ok' };
  const make = (name: string) =>
    defineAgent({
      name,
      runtime,
      provider: scriptedProvider(Array.from({ length: 10 }, () => reply)),
      actions: {
        handle: () => ({ message: 'Go', tools: [ask] }),
        triage: () => ({ message: 'Triage', tools: [ask] }),
      },
    });
  return { runtime, support: make('support'), billing: make('billing'), ran };
}

const ids = (list: { generationId: string }[]) => list.map((entry) => entry.generationId);

describe('runtime.pending()', () => {
  it('lists open questions oldest first, with agent, action, requests and when they were asked', async () => {
    const { runtime, support, billing } = desk();
    const first = await support.handle({}).generateNow();
    const second = await billing.triage({}).generateNow();
    const pending = await runtime.pending();
    expect(ids(pending)).toEqual([first.generationId, second.generationId]);
    expect(pending[0]).toMatchObject({ agent: 'support', action: 'handle', expiresAt: undefined });
    expect(pending[0]?.askedAt).toBeInstanceOf(Date);
    expect(pending[0]?.inputRequests.map((request) => [request.toolCallId, request.prompt])).toEqual([
      ['call_ask', 'Go ahead?'],
    ]);
    expect(ids(await runtime.pending({ agent: 'billing' }))).toEqual([second.generationId]);
    expect(ids(await runtime.pending({ action: 'handle' }))).toEqual([first.generationId]);
    expect(ids(await runtime.pending({ agent: 'billing', action: 'handle' }))).toEqual([]);
  });

  it('drops a question once it is answered, expired or cancelled', async () => {
    const { runtime, support } = desk();
    const answered = await support.handle({}).generateNow();
    const cancelled = await support.handle({}).generateNow();
    const open = await support.handle({}).generateNow();
    await runtime.answer(answered.generationId, { call_ask: true });
    await runtime.cancel(cancelled.generationId, 'customer withdrew');
    expect(ids(await runtime.pending())).toEqual([open.generationId]);

    const expiring = desk({ expiresIn: 50 });
    const paused = await expiring.support.handle({}).generateNow();
    expect((await expiring.runtime.pending())[0]?.expiresAt?.toISOString()).toBe(paused.checkpoint?.input_expires_at);
    await expect.poll(() => expiring.runtime.pending()).toEqual([]);
  });

  it('lists a generation again when it pauses again, and refuses a bad filter', async () => {
    const { runtime, support } = desk();
    const paused = await support.handle({}).generateNow();
    const done = await runtime.answer(paused.generationId, { call_ask: true });
    expect(done.status).toBe('completed');
    expect(await runtime.pending()).toEqual([]);
    await expect(runtime.pending({ agent: '' })).rejects.toThrow(TypeError);
    await expect(runtime.pending(null as never)).rejects.toThrow(TypeError);
  });

  it('filters and decides on the signed checkpoint, never on what an index record says', async () => {
    const { runtime, support, billing } = desk();
    const paused = await support.handle({}).generateNow();
    const answered = await billing.handle({}).generateNow();
    await runtime.answer(answered.generationId, { call_ask: true });
    const index = runtime.bus.pending as NonNullable<typeof runtime.bus.pending>;
    const record = {
      version: 1 as const,
      claim_slot: 0,
      input_requests: [],
      asked_at: new Date().toISOString(),
      agent: 'someone-else',
      action: 'elsewhere',
      audience: 'another-deployment',
    };
    // The waiting pause's record says another agent, action and deployment; the answered one's is back.
    await index.put({ ...record, generation_id: paused.generationId });
    await index.put({ ...record, generation_id: answered.generationId, agent: 'billing', action: 'handle' });
    expect(ids(await runtime.pending())).toEqual([paused.generationId]);
    expect(ids(await runtime.pending({ agent: 'support', action: 'handle' }))).toEqual([paused.generationId]);
    expect(ids(await runtime.pending({ agent: 'someone-else' }))).toEqual([]);
    expect(ids(await runtime.pending({ agent: 'billing' }))).toEqual([]);
  });
});

describe('runtime.cancel()', () => {
  it('consumes the checkpoint, announces cancelled and refuses later answers with cancelled', async () => {
    const { runtime, support, ran } = desk();
    const paused = await support.handle({}).generateNow();
    await runtime.cancel(paused.generationId, 'customer withdrew');
    const events = await runtime.bus.events(paused.generationId);
    expect(events.at(-1)).toMatchObject({ event: 'cancelled', data: { reason: 'customer withdrew', claim_slot: 0 } });
    await expect(runtime.answer(paused.generationId, { call_ask: true })).rejects.toMatchObject({ code: 'cancelled' });
    await expect(
      support.handle({}).resumeNow({ checkpoint: throughJson(paused.checkpoint), answers: { call_ask: true } }),
    ).rejects.toMatchObject({ name: 'ResumeError', code: 'cancelled' });
    await expect(runtime.cancel(paused.generationId, 'again')).rejects.toMatchObject({ code: 'cancelled' });
    expect(ran).toEqual([]);
  });

  it('loses to an answer given first, and refuses what it cannot cancel', async () => {
    const { runtime, support } = desk();
    const paused = await support.handle({}).generateNow();
    await support.handle({}).resumeNow({ checkpoint: throughJson(paused.checkpoint), answers: { call_ask: true } });
    await expect(runtime.cancel(paused.generationId, 'too late')).rejects.toMatchObject({ code: 'already_resumed' });
    await expect(runtime.cancel('gen_unknown', 'nothing')).rejects.toMatchObject({ code: 'not_found' });
    await expect(runtime.cancel(paused.generationId, '')).rejects.toThrow(TypeError);
  });

  it('stops a deadline from resuming the generation', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const { runtime, support, ran } = desk({ expiresIn: 80 });
      const paused = await support.handle({}).generateNow();
      await runtime.cancel(paused.generationId, 'handled by phone');
      // Past the deadline: its timer fired (if cancelling left it armed) and found the generation cancelled.
      await vi.advanceTimersByTimeAsync(200);
      const names = (await runtime.bus.events(paused.generationId)).map((event) => event.event);
      expect(names.slice(-2)).toEqual(['input_requested', 'cancelled']);
      expect(ran).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });
});
