import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ResumeError } from '../errors/resume-error.js';
import { InputRequest } from '../input-request/input-request.js';
import { createRuntime } from '../runtime/create-runtime.js';
import type { Runtime } from '../runtime/runtime.js';
import { scriptedProvider } from '../testing/scripted-provider.js';
import { tool } from '../tool/tool.js';
import { defineAgent } from './define-agent.js';

const refundCall = { toolCalls: [{ id: 'call_refund', name: 'issue_refund', arguments: { amount: 30 } }] };

/** A refund tool that asks first and says which definition ran it. */
function refundTool(definition: string, ran: string[]) {
  return tool({
    name: 'issue_refund',
    description: 'Refund an amount',
    input: z.object({ amount: z.number() }),
    run({ amount }, ctx) {
      if (ctx.answer === undefined) return InputRequest.confirm(`Refund $${amount}?`);
      ran.push(definition);
      return { refunded: amount, by: definition };
    },
  });
}

/** The support agent as a test's setup (or a reloaded module) would build it, on the given runtime. */
function buildSupport(
  definition: string,
  runtime: Runtime | undefined,
  replies: Parameters<typeof scriptedProvider>[0],
) {
  const ran: string[] = [];
  const provider = scriptedProvider(replies);
  const agent = defineAgent({
    name: 'support',
    ...(runtime && { runtime }),
    provider,
    actions: { handle: () => ({ message: 'Refund order 42', tools: [refundTool(definition, ran)] }) },
  });
  return { agent, provider, ran };
}

describe('defining an agent again under the same name', () => {
  it('replaces it for lookups by name: runtime.answer() resumes with the latest definition', async () => {
    const runtime = createRuntime();
    const first = buildSupport('first', runtime, [refundCall, { text: 'first done' }]);
    const paused = await first.agent.handle().generateNow();
    expect(paused.awaitingInput).toBe(true);

    const second = buildSupport('second', runtime, [{ text: 'second done' }]);
    expect(runtime.agents.get('support')).toBe(second.agent);

    const done = await runtime.answer(paused.generationId, { call_refund: true });
    expect(done.text).toBe('second done');
    expect(second.ran).toEqual(['second']);
    expect(first.ran).toEqual([]);
  });

  it('leaves a generation already running with the definition it started from', async () => {
    const runtime = createRuntime();
    let replacement: ReturnType<typeof buildSupport> | undefined;
    // A tool body that redefines its own agent mid-run, as a hot reload landing then would.
    const reload = tool({
      name: 'reload',
      description: 'Reload the agent',
      input: z.object({}),
      run() {
        replacement = buildSupport('replacement', runtime, [{ text: 'replacement answered' }]);
        return 'reloaded';
      },
    });
    const provider = scriptedProvider([
      { toolCalls: [{ id: 'call_reload', name: 'reload', arguments: {} }] },
      { text: 'original answered' },
    ]);
    const original = defineAgent({
      name: 'support',
      runtime,
      provider,
      actions: { handle: () => ({ message: 'Reload', tools: [reload] }) },
    });

    const done = await original.handle().generateNow();
    expect(done.text).toBe('original answered');
    expect(provider.requests).toHaveLength(2);
    expect(replacement?.provider.requests).toEqual([]);
    expect(runtime.agents.get('support')).toBe(replacement?.agent);
  });

  it('serves a factory that builds the agent per request: each request runs its own definition', async () => {
    const runtime = createRuntime();
    const handleRequest = async (user: string) => {
      const provider = scriptedProvider([{ text: `hello ${user}` }]);
      const agent = defineAgent({
        name: 'greeter',
        runtime,
        provider,
        instructions: `You greet ${user}.`,
        actions: { greet: () => ({ message: 'Greet' }) },
      });
      const response = await agent.greet().generateNow();
      return { text: response.text, instructions: provider.requests[0]?.instructions };
    };

    const answers = await Promise.all(['ada', 'grace', 'linus'].map(handleRequest));
    expect(answers).toEqual([
      { text: 'hello ada', instructions: 'You greet ada.' },
      { text: 'hello grace', instructions: 'You greet grace.' },
      { text: 'hello linus', instructions: 'You greet linus.' },
    ]);
    expect([...runtime.agents.keys()]).toEqual(['greeter']);
  });

  it('works the same on the implicit default runtime', async () => {
    const first = buildSupport('first', undefined, [refundCall]);
    const second = buildSupport('second', undefined, [{ text: 'second done' }]);
    expect(second.agent.runtime).toBe(first.agent.runtime);
    expect(first.agent.runtime.agents.get('support')).toBe(second.agent);
    const paused = await first.agent.handle().generateNow();
    const done = await first.agent.runtime.answer(paused.generationId, { call_refund: true });
    expect(done.text).toBe('second done');
  });

  it('refuses to resume, with action_mismatch and nothing consumed, when the latest definition lacks the paused action', async () => {
    const runtime = createRuntime();
    const first = buildSupport('first', runtime, [refundCall]);
    const paused = await first.agent.handle().generateNow();
    defineAgent({
      name: 'support',
      runtime,
      provider: scriptedProvider([]),
      actions: { triage: () => ({ message: 'Triage' }) },
    });

    const refused = await runtime.answer(paused.generationId, { call_refund: true }).catch((error: unknown) => error);
    expect(ResumeError.isInstance(refused) && refused.code).toBe('action_mismatch');
    expect((refused as Error).message).toContain('handle');

    // The checkpoint is still there for a definition that has the action again.
    const restored = buildSupport('restored', runtime, [{ text: 'restored done' }]);
    expect((await runtime.answer(paused.generationId, { call_refund: true })).text).toBe('restored done');
    expect(restored.ran).toEqual(['restored']);
  });
});
