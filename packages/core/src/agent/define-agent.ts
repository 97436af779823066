import { InterludeError } from '../errors/interlude-error.js';
import { GenerationRunner } from '../generation/generation.js';
import { defaultRuntime } from '../runtime/default-runtime.js';
import type { ActionFunction } from './action.js';
import type { Agent, AgentBase, AgentConfig, InputRequestCallbackEntry } from './agent-types.js';

const reservedNames = new Set([
  'name',
  'runtime',
  'provider',
  'instructions',
  'actions',
  'inputRequestCallbacks',
  'generation',
  'conversationId',
]);

/**
 * Defines an agent: a provider, instructions, and named actions that each build a prompt from
 * params. `agent.<action>(params)` returns a `Generation`. The agent registers with its runtime
 * (the embedded default when none is given) so workers and `runtime.answer()` can find it by name.
 * Defining it again under the same name replaces it for those lookups (tests that rebuild their
 * agents, hot reload and per-request factories all do); generations already running keep theirs.
 * What varies per request belongs in the action's params, which the checkpoint keeps: a
 * definition's closure is whichever definition resumes.
 *
 * @example
 *   const support = defineAgent({
 *     name: 'support', provider: anthropic({ model: 'claude-sonnet-4-5' }),
 *     actions: { handle: ({ ticketId }: { ticketId: number }) => ({ message: `Resolve ticket ${ticketId}`, tools }) },
 *   });
 *   const response = await support.handle({ ticketId: 42 }).generateNow();
 */
export function defineAgent<Actions extends Record<string, ActionFunction>>(
  config: AgentConfig<Actions>,
): Agent<Actions> {
  if (typeof config.name !== 'string' || !/^[a-zA-Z0-9_-]+$/.test(config.name)) {
    throw new TypeError(
      `Agent names are letters, digits, _ or - (they become NATS subject tokens): got ${JSON.stringify(config.name)}`,
    );
  }
  for (const actionName of Object.keys(config.actions)) {
    if (reservedNames.has(actionName) || !/^[a-zA-Z0-9_-]+$/.test(actionName)) {
      throw new TypeError(`Agent ${config.name} cannot have an action named ${JSON.stringify(actionName)}`);
    }
    if (typeof config.actions[actionName] !== 'function') {
      throw new TypeError(`Action ${actionName} of agent ${config.name} must be a function`);
    }
  }
  if (config.conversationId !== undefined && typeof config.conversationId !== 'function') {
    throw new InterludeError(
      'invalid_conversation_id',
      `conversationId of agent ${config.name} must be a function of the params, returning a string`,
    );
  }
  const callbacks: readonly InputRequestCallbackEntry[] =
    config.onInputRequest === undefined
      ? []
      : Array.isArray(config.onInputRequest)
        ? config.onInputRequest
        : [config.onInputRequest as InputRequestCallbackEntry];
  const runtime = config.runtime ?? defaultRuntime();
  const base: AgentBase = {
    name: config.name,
    runtime,
    provider: config.provider,
    instructions: config.instructions,
    actions: config.actions,
    inputRequestCallbacks: callbacks,
    context: config.context,
    conversationId: config.conversationId as AgentBase['conversationId'],
    generation(actionName, params) {
      return new GenerationRunner(base, actionName, params);
    },
  };
  const agent = base as unknown as Record<string, unknown>;
  for (const actionName of Object.keys(config.actions)) {
    agent[actionName] = (params: unknown) => base.generation(actionName, params);
  }
  runtime.register(base);
  return agent as Agent<Actions>;
}
