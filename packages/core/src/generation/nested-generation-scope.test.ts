import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineAgent } from '../agent/define-agent.js';
import { InputRequest } from '../input-request/input-request.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { throughJson } from '../test-support/harness.js';
import { scriptedProvider } from '../testing/scripted-provider.js';
import { secretFormsIn } from '../testing/secret-in-every-form.js';
import { tool } from '../tool/tool.js';

type ScopeReading = ReturnType<typeof whatScopeHolds>;

/** What `InputRequest` reads from wherever it is called: the current call and its answer. */
const whatScopeHolds = () => ({
  callId: InputRequest.currentToolCallId(),
  answer: InputRequest.answerFor(InputRequest.currentToolCallId()),
  parentAnswer: InputRequest.answerFor('call_parent'),
});

/**
 * A parent whose tool asks for a secret and, once answered, starts a child generation directly
 * (not through `delegate()`). The child's action function, tool and callback each read the tool
 * scope the way a careless helper would, and write what they read into the child's prompt,
 * result and log.
 */
function parentStartingAChild() {
  const runtime = createRuntime();
  const seen: {
    action?: ScopeReading;
    tool?: ScopeReading;
    callback?: ScopeReading;
    childGeneration?: string;
  } = {};
  const childTool = tool({
    name: 'file_note',
    description: 'File a note, after asking a person what it says',
    input: z.object({}),
    run(_, ctx) {
      seen.tool = whatScopeHolds();
      if (ctx.answer === undefined) return InputRequest.text('What should the note say?');
      return { filed: ctx.answer, read_from_scope: whatScopeHolds().answer };
    },
  });
  const childProvider = scriptedProvider([{ toolCalls: [{ id: 'call_child', name: 'file_note', arguments: {} }] }]);
  const child = defineAgent({
    name: 'child',
    runtime,
    provider: childProvider,
    actions: {
      note: () => {
        seen.action = whatScopeHolds();
        return { message: `File a note about ${String(whatScopeHolds().answer ?? 'the deploy')}`, tools: [childTool] };
      },
    },
    onInputRequest: [
      () => {
        seen.callback = whatScopeHolds();
      },
    ],
  });
  const deploy = tool({
    name: 'deploy',
    description: 'Deploy with a token, then have the child agent file a note',
    input: z.object({}),
    async run(_, ctx) {
      if (ctx.answer === undefined) return InputRequest.secret('Deploy token?');
      const note = await child.note().generateNow();
      seen.childGeneration = note.generationId;
      return { deployed: true, note: note.status };
    },
  });
  const parent = defineAgent({
    name: 'parent',
    runtime,
    provider: scriptedProvider([
      { toolCalls: [{ id: 'call_parent', name: 'deploy', arguments: {} }] },
      { text: 'Deployed; the note waits for a person.' },
    ]),
    actions: { handle: () => ({ message: 'Deploy api', tools: [deploy] }) },
  });
  return { runtime, parent, childProvider, seen };
}

describe('a generation started inside a tool body, directly', () => {
  it('runs its action function, tools and callbacks outside the parent tool scope: the parent secret reaches none of them', async () => {
    const canary = `canary-${randomUUID()}`;
    const { runtime, parent, childProvider, seen } = parentStartingAChild();
    const paused = await parent.handle().generateNow();
    const done = await parent
      .handle()
      .resumeNow({ checkpoint: throughJson(paused.checkpoint), answers: { call_parent: canary } });
    expect(done.status).toBe('completed');

    const outside = { callId: undefined, answer: undefined, parentAnswer: undefined };
    expect.soft(seen.action, 'action function').toEqual(outside);
    expect.soft(seen.callback, 'onInputRequest callback').toEqual(outside);
    expect.soft(seen.tool, 'tool').toEqual({ callId: 'call_child', answer: undefined, parentAnswer: undefined });

    const childGeneration = seen.childGeneration ?? '';
    const stored = await runtime.bus.checkpoints.load(childGeneration);
    expect(stored?.checkpoint.input_requests[0]?.prompt).toBe('What should the note say?');
    const sinks = {
      'child model requests': JSON.stringify(childProvider.requests),
      'child events': JSON.stringify(await runtime.bus.events(childGeneration)),
      'child checkpoint': JSON.stringify(stored),
    };
    for (const [sink, text] of Object.entries(sinks)) expect.soft(secretFormsIn(text, canary), sink).toEqual([]);
    expect(sinks['child model requests']).toContain('File a note about the deploy');
  });
});
