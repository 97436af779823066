import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ResumeError } from '../errors/resume-error.js';
import { newGenerationId } from '../generation/generation.js';
import { InputRequest } from '../input-request/input-request.js';
import { expectRebuildMatches, scriptedAgent, throughJson } from '../test-support/harness.js';
import { tool } from '../tool/tool.js';
import { meetDeadline } from './meet-deadline.js';

/** A refund tool whose question expires `expiresIn` ms after it is asked; it records what it ran with. */
function expiringRefund(options: { expiresIn: number; onExpiry?: 'decline' | { answer: boolean } }) {
  const ran: unknown[] = [];
  const refund = tool({
    name: 'issue_refund',
    description: 'Refund an order',
    input: z.object({ amount: z.number() }),
    run({ amount }, ctx) {
      if (ctx.answer === undefined) return InputRequest.confirm(`Refund $${amount}?`, options);
      ran.push(ctx.answer);
      return { refunded: amount };
    },
  });
  const { agent, provider, runtime } = scriptedAgent(
    () => ({ message: 'Refund order 7', tools: [refund] }),
    [{ toolCalls: [{ id: 'call_refund', name: 'issue_refund', arguments: { amount: 30 } }] }, { text: 'Handled.' }],
  );
  return { agent, provider, runtime, ran };
}

const eventNames = async (runtime: { bus: { events(id: string): Promise<{ event: string }[]> } }, id: string) =>
  (await runtime.bus.events(id)).map((event) => event.event);

describe('questions that expire, on the memory bus', () => {
  it('carries the deadline in the question, the checkpoint and the rebuilt checkpoint', async () => {
    const { agent, runtime } = expiringRefund({ expiresIn: 60_000 });
    const before = Date.now();
    const paused = await agent.handle({}).generateNow();
    const deadline = Date.parse(paused.checkpoint?.input_expires_at ?? '');
    expect(deadline).toBeGreaterThanOrEqual(before + 60_000);
    expect(paused.inputRequests[0]?.expiresAt?.getTime()).toBe(deadline);
    expect(paused.inputRequests[0]?.onExpiry).toBe('decline');
    await expectRebuildMatches(runtime, paused);
    await runtime.close();
  });

  it('tells the model nobody answered in time, announcing input_expired before resumed', async () => {
    const { agent, provider, runtime, ran } = expiringRefund({ expiresIn: 50 });
    const paused = await agent.handle({}).generateNow();
    await expect.poll(() => eventNames(runtime, paused.generationId)).toContain('completed');
    expect(await eventNames(runtime, paused.generationId)).toEqual([
      'started',
      'model_responded',
      'tool_started',
      'input_requested',
      'input_expired',
      'resumed',
      'tool_completed',
      'model_responded',
      'completed',
    ]);
    const expired = (await runtime.bus.events(paused.generationId)).find((event) => event.event === 'input_expired');
    expect(expired?.data).toEqual({
      input_expires_at: paused.checkpoint?.input_expires_at,
      unanswered_tool_calls: ['call_refund'],
      answered_tool_calls: [],
    });
    const events = await runtime.bus.events(paused.generationId);
    expect(events.find((event) => event.event === 'resumed')?.data).toMatchObject({
      answered_tool_calls: [],
      declined_tool_calls: [],
    });
    expect(ran).toEqual([]);
    const lastMessage = JSON.stringify(provider.requests[1]?.messages.at(-1));
    expect(lastMessage).toContain('no answer in time');
    expect(lastMessage).not.toContain('declined by user');
    await runtime.close();
  });

  it("keeps a person's decline distinct: the model reads declined by user, and resumed lists it", async () => {
    const { agent, provider, runtime, ran } = expiringRefund({ expiresIn: 60_000 });
    const paused = await agent.handle({}).generateNow();
    await runtime.answer(paused.generationId, { call_refund: false });
    const names = await eventNames(runtime, paused.generationId);
    expect(names).not.toContain('input_expired');
    const resumed = (await runtime.bus.events(paused.generationId)).find((event) => event.event === 'resumed');
    expect(resumed?.data).toMatchObject({ declined_tool_calls: ['call_refund'] });
    expect(ran).toEqual([]);
    expect(JSON.stringify(provider.requests[1]?.messages.at(-1))).toContain('declined by user');
    await runtime.close();
  });

  it('records the expiry in the checkpoint when the turn pauses again: its result says no answer in time', async () => {
    const refund = tool({
      name: 'issue_refund',
      description: 'Refund an order',
      input: z.object({ amount: z.number() }),
      run: ({ amount }, ctx) =>
        ctx.answer === undefined ? InputRequest.confirm(`Refund $${amount}?`, { expiresIn: 50 }) : { refunded: amount },
    });
    // Given its onExpiry answer, the note asks a second question: the same turn pauses again.
    const note = tool({
      name: 'add_note',
      description: 'Note on the ticket',
      input: z.object({}),
      run: (_input, ctx) =>
        ctx.answer === 'draft'
          ? InputRequest.text('Final wording?')
          : InputRequest.text('What note?', { expiresIn: 50, onExpiry: { answer: 'draft' } }),
    });
    const { agent, runtime } = scriptedAgent(
      () => ({ message: 'Refund order 7', tools: [refund, note] }),
      [
        {
          toolCalls: [
            { id: 'call_refund', name: 'issue_refund', arguments: { amount: 30 } },
            { id: 'call_note', name: 'add_note', arguments: {} },
          ],
        },
      ],
    );
    const paused = await agent.handle({}).generateNow();
    await expect
      .poll(async () => (await eventNames(runtime, paused.generationId)).filter((name) => name === 'input_requested'))
      .toHaveLength(2);
    const stored = await runtime.bus.checkpoints.load(paused.generationId);
    expect(stored?.checkpoint.completed_results).toEqual({
      call_refund: { tool_name: 'issue_refund', result: { error: 'no answer in time' }, is_error: true },
    });
    const expired = (await runtime.bus.events(paused.generationId)).find((event) => event.event === 'input_expired');
    expect(expired?.data).toMatchObject({ unanswered_tool_calls: ['call_refund'], answered_tool_calls: ['call_note'] });
    await runtime.close();
  });

  it('answers with onExpiry.answer when one is given', async () => {
    const { agent, runtime, ran } = expiringRefund({ expiresIn: 50, onExpiry: { answer: true } });
    const paused = await agent.handle({}).generateNow();
    await expect.poll(() => eventNames(runtime, paused.generationId)).toContain('completed');
    expect(ran).toEqual([true]);
    await runtime.close();
  });

  it('refuses an answer after the deadline with expired', async () => {
    const { agent, runtime, ran } = expiringRefund({ expiresIn: 50 });
    const paused = await agent.handle({}).generateNow();
    await expect.poll(() => eventNames(runtime, paused.generationId)).toContain('completed');
    const late = agent
      .handle({})
      .resumeNow({ checkpoint: throughJson(paused.checkpoint), answers: { call_refund: true } });
    await expect(late).rejects.toMatchObject({ name: 'ResumeError', code: 'expired' });
    await expect(runtime.answer(paused.generationId, { call_refund: true })).rejects.toSatisfy(
      (error) => ResumeError.isInstance(error) && error.code === 'expired',
    );
    expect(ran).toEqual([]);
    await runtime.close();
  });

  it('lets an answer given in time win: the deadline then resumes nothing', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const { agent, runtime, ran } = expiringRefund({ expiresIn: 300 });
      const paused = await agent.handle({}).generateNow();
      const done = await runtime.answer(paused.generationId, { call_refund: true });
      expect(done.status).toBe('completed');
      // Past the deadline the timer has fired and found the pause answered.
      expect(vi.getTimerCount()).toBeGreaterThan(0);
      await vi.advanceTimersByTimeAsync(400);
      expect(await eventNames(runtime, paused.generationId)).not.toContain('input_expired');
      expect(ran).toEqual([true]);
      await runtime.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps the real timer when another was scheduled first for the same generation and slot', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const { agent, runtime, ran } = expiringRefund({ expiresIn: 300 });
      const generationId = newGenerationId();
      const forged = { version: 1 as const, generation_id: generationId, agent: 'support', action: 'handle' };
      await runtime.bus.timers?.schedule({ ...forged, claim_slot: 0, due_at: new Date().toISOString() });
      const paused = await agent.handle({}).generateNow({ generationId });
      expect(paused.status).toBe('awaiting_input');
      await vi.advanceTimersByTimeAsync(400);
      expect((await eventNames(runtime, generationId)).slice(-1)).toEqual(['completed']);
      expect(await eventNames(runtime, generationId)).toContain('input_expired');
      expect(ran).toEqual([]);
      await runtime.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('meets no timer that names no slot: one format, a slot always written', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const { agent, runtime, ran } = expiringRefund({ expiresIn: 300 });
      const paused = await agent.handle({}).generateNow();
      vi.setSystemTime(Date.now() + 400);
      const checkpoint = paused.checkpoint as NonNullable<typeof paused.checkpoint>;
      const timer = {
        version: 1 as const,
        generation_id: paused.generationId,
        agent: checkpoint.agent,
        action: checkpoint.action_name,
        due_at: checkpoint.input_expires_at as string,
      };
      expect(await meetDeadline(runtime, timer as never)).toBe('gone');
      expect(await eventNames(runtime, paused.generationId)).not.toContain('input_expired');
      expect(await meetDeadline(runtime, { ...timer, claim_slot: 0 })).toBe('resumed');
      expect(await eventNames(runtime, paused.generationId)).toContain('input_expired');
      expect(ran).toEqual([]);
      await runtime.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('gates a tool whose approval expires with approvalExpiry', async () => {
    const ran: string[] = [];
    const close = tool({
      name: 'close_account',
      description: 'Close the account',
      input: z.object({}),
      approvalExpiry: { expiresIn: 50 },
      run: () => {
        ran.push('closed');
        return { closed: true };
      },
    });
    const { agent, runtime } = scriptedAgent(
      () => ({ message: 'Close it', tools: [close], requiresApproval: 'close_account' }),
      [{ toolCalls: [{ id: 'call_close', name: 'close_account', arguments: {} }] }, { text: 'Left open.' }],
    );
    const paused = await agent.handle({}).generateNow();
    expect(paused.inputRequests[0]?.metadata).toEqual({ approval: true });
    expect(paused.inputRequests[0]?.expiresAt).toBeInstanceOf(Date);
    await expect.poll(() => eventNames(runtime, paused.generationId)).toContain('completed');
    expect(ran).toEqual([]);
    await runtime.close();
  });

  it('refuses bad expiry options before anything runs', () => {
    expect(() => InputRequest.confirm('Go?', { expiresIn: -1 })).toThrow(/expiresIn must be a positive number/);
    expect(() => InputRequest.confirm('Go?', { expiresIn: 10, expiresAt: new Date() })).toThrow(/not both/);
    expect(() => InputRequest.confirm('Go?', { expiresAt: 'next tuesday' })).toThrow(/Date or an ISO time/);
    expect(() => InputRequest.confirm('Go?', { onExpiry: { answer: true } })).toThrow(/needs expiresIn or expiresAt/);
    expect(() => InputRequest.secret('Token?', { expiresIn: 10, onExpiry: { answer: 'x' } })).toThrow(/secret/);
    expect(() => InputRequest.confirm('Go?', { expiresIn: 10, onExpiry: { answer: 'yes' } })).toThrow(
      /onExpiry.answer does not fit/,
    );
    expect(() =>
      InputRequest.choice('Which?', { options: ['a', 'b'], expiresIn: 10, onExpiry: { answer: 'c' } }),
    ).toThrow(/onExpiry.answer does not fit/);
    expect(() =>
      tool({ name: 't', description: 't', input: z.object({}), approvalExpiry: { expiresIn: 0 }, run: () => 1 }),
    ).toThrow(/expiresIn/);
  });

  it('round-trips an expiring question through JSON exactly', () => {
    const request = InputRequest.choice('Which?', {
      options: ['a', 'b'],
      expiresAt: '2030-01-01T00:00:00Z',
      onExpiry: { answer: 'a' },
    });
    const json = request.toJSON();
    expect(json).toEqual({
      kind: 'choice',
      prompt: 'Which?',
      options: ['a', 'b'],
      expires_at: '2030-01-01T00:00:00.000Z',
      on_expiry: { answer: 'a' },
    });
    expect(InputRequest.fromJSON(json).toJSON()).toEqual(json);
  });
});
