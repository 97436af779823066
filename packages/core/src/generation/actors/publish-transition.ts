import type { EventName } from '../../bus/events.js';
import { checkpointFromContext } from '../../checkpoint/checkpoint-from-context.js';
import { eventData } from '../event-data.js';
import type { GenerationContext } from '../generation-context.js';
import type { RunScope } from '../run-scope.js';

/**
 * The `publish` action of one run: turns a transition into its event. A pause is stored before
 * it is announced, so whoever hears `input_requested` can resume it; a nested generation's pause
 * is neither stored nor announced.
 */
export function publishTransition(
  scope: RunScope,
  name: EventName,
  context: GenerationContext,
  answers: ReadonlyMap<string, unknown> | undefined,
): void {
  const { options, traceparent } = scope;
  if (options.nested && name === 'input_requested') return;
  const runtime = options.agent.runtime;
  let before: (() => Promise<void>) | undefined;
  let expiresAt: string | undefined;
  if (name === 'input_requested') {
    const checkpoint = checkpointFromContext(context, traceparent, scope.seal);
    scope.pausedCheckpoint = checkpoint;
    // The event carries the expiry too, so the checkpoint rebuilt from the log is this one.
    expiresAt = checkpoint.expires_at;
    before = async () => {
      await runtime.bus.checkpoints.save(scope.generationId, { checkpoint, params: options.params });
    };
  }
  const data = eventData(name, context, { traceparent, expiresAt, ...(answers && { answers }) });
  scope.publisher.emit(name, data, before);
}
