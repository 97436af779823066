import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineAgent } from '../agent/define-agent.js';
import { UnsupportedProviderError } from '../errors/unsupported-provider-error.js';
import { InputRequest } from '../input-request/input-request.js';
import type { ProviderAdapter } from '../provider/provider-adapter.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { expectRebuildMatches, scriptedAgent, throughJson } from '../test-support/harness.js';
import { scriptedProvider } from '../testing/scripted-provider.js';
import { tool } from '../tool/tool.js';

const ping = tool({
  name: 'ping',
  description: 'Ping',
  input: z.object({ n: z.number() }),
  run: ({ n }) => ({ pong: n }),
});
const pingCall = (id: string) => ({ toolCalls: [{ id, name: 'ping', arguments: { n: 1 } }] });
const asker = tool({
  name: 'asker',
  description: 'Asks once',
  input: z.object({}),
  run: (_, ctx) => (ctx.answer === undefined ? InputRequest.confirm('Go on?') : 'went on'),
});

describe('loop controls', () => {
  it('maxToolTurns counts round trips across pauses and ends cleanly with tool_turns_exceeded', async () => {
    const { agent, provider, runtime } = scriptedAgent(
      () => ({ message: 'Loop', tools: [ping, asker], maxToolTurns: 2 }),
      [{ toolCalls: [{ id: 'a1', name: 'asker', arguments: {} }] }, pingCall('p1'), pingCall('p2')],
    );
    const paused = await agent.handle().generateNow();
    expect(paused.checkpoint?.tool_turns).toBe(1);
    const done = await agent.handle().resumeNow({ checkpoint: throughJson(paused.checkpoint), answers: { a1: true } });

    expect(done.status).toBe('tool_turns_exceeded');
    expect(done.awaitingInput).toBe(false);
    expect(done.toolTurns).toBe(2);
    expect(provider.requests).toHaveLength(3);
    const events = await runtime.bus.events(paused.generationId);
    expect(events.map((event) => event.event).slice(-2)).toEqual(['tool_turns_exceeded', 'completed']);
    expect(events.find((event) => event.event === 'tool_turns_exceeded')?.data).toMatchObject({
      tool_turns: 2,
      max_tool_turns: 2,
    });
  });

  it('a forced tool choice is cleared once the model used the tool, and stays cleared across a pause', async () => {
    const { agent, provider, runtime } = scriptedAgent(
      () => ({ message: 'Force', tools: [ping, asker], toolChoice: { type: 'tool' as const, name: 'asker' } }),
      [{ toolCalls: [{ id: 'a1', name: 'asker', arguments: {} }] }, pingCall('p1'), { text: 'ok' }],
    );
    const paused = await agent.handle().generateNow();
    expect(paused.checkpoint?.tool_choice_cleared).toBe(true);
    await expectRebuildMatches(runtime, paused);
    await agent.handle().resumeNow({ checkpoint: throughJson(paused.checkpoint), answers: { a1: true } });
    expect(provider.requests.map((request) => request.toolChoice)).toEqual([
      { type: 'tool', name: 'asker' },
      undefined,
      undefined,
    ]);
  });

  it('runs onInputRequest callbacks in order, filtered by only/except, before the paused response returns', async () => {
    const calls: string[] = [];
    const asker = tool({
      name: 'asker',
      description: 'Asks',
      input: z.object({}),
      run: () => InputRequest.text('Why?'),
    });
    const provider = scriptedProvider([{ toolCalls: [{ id: 'a1', name: 'asker', arguments: {} }] }]);
    const agent = defineAgent({
      name: 'callbacks',
      runtime: createRuntime(),
      provider,
      actions: { handle: () => ({ message: 'x', tools: [asker] }), other: () => ({ message: 'y', tools: [asker] }) },
      onInputRequest: [
        async (requests, info) => {
          await new Promise((resolve) => setTimeout(resolve, 10));
          calls.push(
            `first:${requests[0]?.prompt}:${info.action}:${info.checkpoint.generation_id === info.generationId}`,
          );
        },
        { handler: () => void calls.push('only-other'), only: ['other'] },
        { handler: () => void calls.push('except-other'), except: ['other'] },
      ],
    });
    await agent.handle().generateNow();
    expect(calls).toEqual(['first:Why?:handle:true', 'except-other']);
  });

  it('tells onInputRequest callbacks a first pause from a pause reached while resuming', async () => {
    const seen: Array<{ prompt: string | undefined; resuming: boolean }> = [];
    const twoQuestions = tool({
      name: 'two_questions',
      description: 'Asks for a name, then for a surname',
      input: z.object({}),
      run: (_, ctx) =>
        ctx.answer === undefined
          ? InputRequest.text('Name?')
          : ctx.answer === 'Ada'
            ? InputRequest.text('Surname?')
            : `hello ${String(ctx.answer)}`,
    });
    const { agent, runtime } = scriptedAgent(
      () => ({ message: 'x', tools: [twoQuestions] }),
      [{ toolCalls: [{ id: 'q1', name: 'two_questions', arguments: {} }] }, { text: 'done' }],
      {
        onInputRequest: [(requests, info) => void seen.push({ prompt: requests[0]?.prompt, resuming: info.resuming })],
      },
    );
    const first = await agent.handle().generateNow();
    const second = await agent
      .handle()
      .resumeNow({ checkpoint: throughJson(first.checkpoint), answers: { q1: 'Ada' } });
    expect(second.awaitingInput).toBe(true);
    // Resumed by id, as a reviewer's answer in another request would be.
    const done = await runtime.answer(second.generationId, { q1: 'Lovelace' });
    expect(done.status).toBe('completed');
    expect(seen).toEqual([
      { prompt: 'Name?', resuming: false },
      { prompt: 'Surname?', resuming: true },
    ]);
  });

  it('tells a tool it is resuming, and answerFor / currentToolCallId read the same answer from anywhere in the tool', async () => {
    const seen: unknown[] = [];
    const readAnswer = () => InputRequest.answerFor(InputRequest.currentToolCallId());
    const asker = tool({
      name: 'asker',
      description: 'Asks',
      input: z.object({}),
      run(_, ctx) {
        seen.push({
          resuming: ctx.resuming,
          answer: ctx.answer,
          fromStorage: readAnswer(),
          id: InputRequest.currentToolCallId(),
        });
        return ctx.answer === undefined ? InputRequest.text('Name?') : `hi ${String(ctx.answer)}`;
      },
    });
    const { agent } = scriptedAgent(
      () => ({ message: 'x', tools: [asker] }),
      [{ toolCalls: [{ id: 'a1', name: 'asker', arguments: {} }] }, { text: 'ok' }],
    );
    const paused = await agent.handle().generateNow();
    await agent.handle().resumeNow({ checkpoint: paused.checkpoint, answers: { a1: 'Ada' } });
    expect(seen).toEqual([
      { resuming: false, answer: undefined, fromStorage: undefined, id: 'a1' },
      { resuming: true, answer: 'Ada', fromStorage: 'Ada', id: 'a1' },
    ]);
    expect(InputRequest.currentToolCallId()).toBeUndefined();
  });

  it('hands a tool the caller’s signal and aborts the model call with it; without one, a tool still reads a live signal', async () => {
    const toolSignals: AbortSignal[] = [];
    const watcher = tool({
      name: 'watch',
      description: 'Reads its signal',
      input: z.object({}),
      run: (_, ctx) => {
        toolSignals.push(ctx.signal);
        return 'watched';
      },
    });
    const scripted = scriptedProvider();
    const callSignals: (AbortSignal | undefined)[] = [];
    // Answers from the script until it runs out, then waits for an abort, as a slow model would.
    const provider: ProviderAdapter = {
      ...scripted,
      call(request, options) {
        callSignals.push(options.signal);
        if (scripted.remaining > 0) return scripted.call(request, options);
        return new Promise((_resolve, reject) =>
          options.signal?.addEventListener('abort', () => reject(options.signal?.reason), { once: true }),
        );
      },
    };
    const agent = defineAgent({
      name: 'support',
      runtime: createRuntime(),
      provider,
      actions: { handle: () => ({ message: 'Watch', tools: [watcher] }) },
    });
    const watchCall = { toolCalls: [{ id: 'w1', name: 'watch', arguments: {} }] };

    scripted.push(watchCall, { text: 'done' });
    expect((await agent.handle().generateNow()).text).toBe('done');
    // No caller's signal: the SDK makes its own, and the tool still reads one that never aborts.
    expect(callSignals).toEqual([undefined, undefined]);
    expect(toolSignals[0]).toBeInstanceOf(AbortSignal);
    expect(toolSignals[0]?.aborted).toBe(false);

    scripted.push(watchCall);
    const caller = new AbortController();
    const running = agent.handle().generateNow({ signal: caller.signal });
    await vi.waitFor(() => expect(callSignals).toHaveLength(4));
    caller.abort(new Error('the person left'));
    await expect(running).rejects.toThrow('the person left');
    expect(toolSignals[1]).toBe(caller.signal);
    // Each model call gets a signal of its own that aborts with the caller's.
    const [first, second] = callSignals.slice(2);
    expect(first).not.toBe(caller.signal);
    expect(first?.aborted).toBe(false);
    expect(second?.aborted).toBe(true);
  });

  it('gives the model an error result for arguments that fail the schema or an unknown tool, without running anything', async () => {
    let runs = 0;
    const strict = tool({
      name: 'strict',
      description: 'Strict',
      input: z.object({ n: z.number() }),
      run: () => ++runs,
    });
    const { agent, provider } = scriptedAgent(
      () => ({ message: 'x', tools: [strict] }),
      [
        {
          toolCalls: [
            { id: 's1', name: 'strict', arguments: { n: 'one' } },
            { id: 's2', name: 'missing', arguments: {} },
          ],
        },
        { text: 'ok' },
      ],
    );
    await agent.handle().generateNow();
    expect(runs).toBe(0);
    const lastMessage = provider.requests[1]?.messages.at(-1) as {
      content: Array<{ content: string; is_error: boolean }>;
    };
    const results = lastMessage.content;
    expect(results[0]?.content).toContain('Invalid arguments for strict');
    expect(results[0]?.is_error).toBe(true);
    expect(results[1]?.content).toBe('{"error":"Unknown tool: missing"}');
  });

  it('sends the provider the JSON Schema of each tool', async () => {
    const { agent, provider } = scriptedAgent(() => ({ message: 'x', tools: [ping] }), [{ text: 'ok' }]);
    await agent.handle().generateNow();
    expect(provider.requests[0]?.tools).toEqual([
      {
        name: 'ping',
        description: 'Ping',
        inputSchema: {
          type: 'object',
          properties: { n: { type: 'number' } },
          required: ['n'],
        },
      },
    ]);
  });

  it('follows provider continuations (pause_turn) up to the adapter cap, then ends saying the turn is unfinished', async () => {
    const pauses = Array.from({ length: 11 }, (_, index) => ({ text: `step ${index}. `, stopReason: 'pause_turn' }));
    const { agent, provider } = scriptedAgent(() => ({ message: 'search' }), pauses);
    const done = await agent.handle().generateNow();
    expect(provider.requests).toHaveLength(11);
    expect(done.status).toBe('completed');
    expect(done.continuationsExceeded).toBe(true);
    expect(done.rawFinishReason).toBe('pause_turn');
    expect(done.finishReason).toBe('pause');
    expect(done.text).toBe(pauses.map((pause) => pause.text).join(''));
  });

  it.each([false, true])(
    'a continued turn reads as all its text, as the stream delivered it (stream: %s)',
    async (streamed) => {
      const replies = [
        { text: 'Let me search. ', stopReason: 'pause_turn' },
        { text: 'Still searching. ', stopReason: 'pause_turn' },
        { text: 'Found it.' },
      ];
      const { agent } = scriptedAgent(() => ({ message: 'search' }), replies);
      let delivered = '';
      let done: Awaited<ReturnType<ReturnType<typeof agent.handle>['generateNow']>>;
      if (streamed) {
        const live = agent.handle().stream();
        for await (const part of live) if (part.type === 'text-delta') delivered += part.text;
        done = await live.response;
      } else {
        done = await agent.handle().generateNow();
        delivered = replies.map((reply) => reply.text).join('');
      }
      expect(done.text).toBe('Let me search. Still searching. Found it.');
      expect(done.text).toBe(delivered);
      expect(done.continuationsExceeded).toBe(false);
    },
  );

  it('a provider that runs tools in its own loop gets UnsupportedProviderError for a gated tool, before it runs', async () => {
    let runs = 0;
    const gated = tool({ name: 'gated', description: 'Gated', input: z.object({}), run: () => ++runs });
    const selfLooping: ProviderAdapter = {
      ...scriptedProvider([]),
      async call(request) {
        const result = await request.executeTool?.({ id: 'g1', name: 'gated', arguments: {} });
        return { messages: [], toolCalls: [], text: String(result?.output), finishReason: 'stop' };
      },
    };
    const agent = defineAgent({
      name: 'self_looping',
      runtime: createRuntime(),
      provider: selfLooping,
      actions: { handle: () => ({ message: 'x', tools: [gated], requiresApproval: 'gated' }) },
    });
    const error = await agent
      .handle()
      .generateNow()
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(UnsupportedProviderError.isInstance(error)).toBe(true);
    expect(runs).toBe(0);
  });
});
