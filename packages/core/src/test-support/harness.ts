import { expect } from 'vitest';
import type { ActionFunction } from '../agent/action.js';
import type { InputRequestCallbackEntry } from '../agent/agent-types.js';
import { defineAgent } from '../agent/define-agent.js';
import type { Job } from '../bus/bus.js';
import { rebuildCheckpoint } from '../checkpoint/rebuild-checkpoint.js';
import type { GenerationResponse } from '../generation/generation-response.js';
import { createRuntime } from '../runtime/create-runtime.js';
import type { RuntimeOptions } from '../runtime/runtime.js';
import { type ScriptedResponder, scriptedProvider } from '../testing/scripted-provider.js';

/** An agent with one `handle` action on a fresh runtime and a scripted model. */
export function scriptedAgent<Action extends ActionFunction>(
  action: Action,
  replies: ScriptedResponder[],
  options: RuntimeOptions & { name?: string; instructions?: string; onInputRequest?: InputRequestCallbackEntry[] } = {},
) {
  const provider = scriptedProvider(replies);
  const runtime = createRuntime(options);
  const agent = defineAgent({
    name: options.name ?? 'support',
    runtime,
    provider,
    instructions: options.instructions ?? 'You resolve support tickets.',
    actions: { handle: action },
    ...(options.onInputRequest && { onInputRequest: options.onInputRequest }),
  });
  return { agent, provider, runtime };
}

/** The checkpoint rebuilt from the event log, signed with the runtime's keys, equals the one the paused response returned. */
export async function expectRebuildMatches(
  runtime: ReturnType<typeof createRuntime>,
  response: GenerationResponse,
): Promise<void> {
  const events = await runtime.bus.events(response.generationId);
  const stored = await runtime.bus.checkpoints.load(response.generationId);
  const rebuilt = rebuildCheckpoint(events, {
    checkpointKey: runtime.keys,
    params: stored?.params,
    audience: await runtime.audience(),
  });
  expect(rebuilt).toEqual(response.checkpoint);
}

/**
 * The (unsigned) resume job of the harness agent's `handle` action that `resumeLater` would queue
 * for a paused response, as plain JSON.
 */
export function resumeJobOf(
  paused: GenerationResponse,
  id: string,
  params: unknown,
  answers: Record<string, unknown>,
): Job {
  return {
    version: 1,
    id,
    kind: 'resume',
    agent: 'support',
    action: 'handle',
    params,
    generation_id: paused.generationId,
    ...(paused.checkpoint !== undefined && { checkpoint: throughJson(paused.checkpoint) }),
    answers,
  };
}

/** What a checkpoint looks like after it went through a database: plain JSON. */
export function throughJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
