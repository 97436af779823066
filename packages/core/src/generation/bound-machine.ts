import { type ActorSystem, createActor, fromPromise } from 'xstate';
import type { ModelResponse } from '../provider/provider-adapter.js';
import { callModel } from './actors/call-model.js';
import { publishTransition } from './actors/publish-transition.js';
import { runTools } from './actors/run-tools.js';
import type { GenerationContext } from './generation-context.js';
import { generationMachine, type RunToolsInput, type RunToolsOutput } from './generation-machine.js';
import type { RunScope } from './run-scope.js';

// biome-ignore lint/suspicious/noExplicitAny: XState types every actor system this way.
type AnyActorSystem = ActorSystem<any>;

/** Each running actor system's scope: set before the actor starts, gone with it. */
const scopes = new WeakMap<AnyActorSystem, RunScope>();

function scopeOf(system: AnyActorSystem): RunScope {
  const scope = scopes.get(system);
  if (scope === undefined) throw new Error('A generation actor ran without its run scope');
  return scope;
}

/**
 * The machine with its real actors, bound once for the process: each run's dependencies are found
 * through its actor system rather than by calling `provide()` per run, which rebuilt the machine
 * every time.
 */
const boundMachine = generationMachine.provide({
  actors: {
    callModel: fromPromise<ModelResponse, GenerationContext>(({ input, system }) => callModel(scopeOf(system), input)),
    runTools: fromPromise<RunToolsOutput, RunToolsInput>(({ input, system }) => runTools(scopeOf(system), input)),
  },
  actions: {
    publish: ({ context, event, system }, params) =>
      publishTransition(scopeOf(system), params.event, context, event.type === 'RESUME' ? event.answers : undefined),
  },
});

/**
 * A generation actor for one run, bound to its scope; not started. A context with questions
 * waiting (a resume) starts restored at `awaiting_input`, ready for its RESUME event, which must
 * bring back `input.messages`: the snapshot is restored without them, since XState's restore walks
 * every object of the context it restores (3 ms a resume at 1,000 turns; now the same at any length).
 */
export function createGenerationActor(input: GenerationContext, scope: RunScope) {
  const snapshot =
    input.inputRequests.length > 0
      ? boundMachine.resolveState({ value: 'awaiting_input', context: { ...input, messages: [] } })
      : undefined;
  // A restored snapshot already holds the context; `input` only seeds a fresh one.
  const actor = createActor(boundMachine, { input, ...(snapshot && { snapshot }) });
  scopes.set(actor.system, scope);
  return actor;
}

export type GenerationActor = ReturnType<typeof createGenerationActor>;
