import type { ModelResponse } from '../provider/provider-adapter.js';
import { callModel } from './actors/call-model.js';
import { publishTransition } from './actors/publish-transition.js';
import { runTools } from './actors/run-tools.js';
import type { GenerationContext } from './generation-context.js';
import { generationMachine, type ResumeEvent, type RunToolsInput, type RunToolsOutput } from './generation-machine.js';
import { createMachineDriver } from './machine-driver.js';
import type { RunScope } from './run-scope.js';

/**
 * The machine with its real actors and its `publish` action, bound once for the process: each
 * run's dependencies come in its `RunScope`. Driven step by step rather than by an actor per run
 * (`machine-driver.ts` says why).
 */
const driver = createMachineDriver(generationMachine, {
  actors: {
    callModel: (scope: RunScope, context: GenerationContext): Promise<ModelResponse> => callModel(scope, context),
    runTools: (scope: RunScope, input: RunToolsInput): Promise<RunToolsOutput> => runTools(scope, input),
  },
  actions: {
    publish: (
      scope: RunScope,
      { context, event }: { context: GenerationContext; event: { type: string } },
      params: { event: Parameters<typeof publishTransition>[1] },
    ) =>
      publishTransition(
        scope,
        params.event,
        context,
        event.type === 'RESUME' ? (event as ResumeEvent).answers : undefined,
      ),
  },
});

export type GenerationSnapshot = ReturnType<typeof generationMachine.resolveState>;

const isPaused = (snapshot: GenerationSnapshot) => snapshot.value === 'awaiting_input';

/**
 * Runs one generation's machine to its next stop: paused (`awaiting_input`), done or failed. A
 * context with questions waiting (a resume) starts restored at `awaiting_input` and is sent
 * `RESUME` with the answers and the conversation: the snapshot is restored without the messages,
 * since XState's restore walks every object of the context it restores (3 ms a resume at 1,000
 * turns; now the same at any length).
 */
export function runMachineToStop(
  input: GenerationContext,
  scope: RunScope,
  answers: ReadonlyMap<string, unknown> | undefined,
): Promise<GenerationSnapshot> {
  if (answers === undefined) return driver.start(scope, input, isPaused);
  const restored = generationMachine.resolveState({ value: 'awaiting_input', context: { ...input, messages: [] } });
  const resume: ResumeEvent = { type: 'RESUME', answers, messages: input.messages };
  return driver.send(scope, restored, resume, isPaused);
}
