import type { EventName } from '../../bus/events.js';
import { checkpointFromContext } from '../../checkpoint/checkpoint-from-context.js';
import { endFailedRun, pauseSlot, writeStep } from '../../claims/run-lease.js';
import { unansweredAtDeadline } from '../../input-request/input-deadline.js';
import { isPermanentFailure } from '../../runtime/permanent-failure.js';
import { forgetWaiting, recordWaiting } from '../../waiting/record-waiting.js';
import { eventData } from '../event-data.js';
import type { GenerationContext } from '../generation-context.js';
import type { RunScope } from '../run-scope.js';

/**
 * The `publish` action of one run: turns a transition into its event. A stop is written to the
 * claim log before it is announced, after everything logged before it: a pause (with its
 * checkpoint, then stored for a resume by id), a finish, or a failure (which gives the claim
 * back, or for a job that retrying cannot help, ends it). A run fenced out there announces
 * nothing. A nested generation's pause is neither stored nor announced.
 */
export function publishTransition(
  scope: RunScope,
  name: EventName,
  context: GenerationContext,
  answers: ReadonlyMap<string, unknown> | undefined,
): void {
  const { options, traceparent, lease } = scope;
  // Fenced out: another holder runs the generation now, and only its events are the run's.
  if (lease.fencedOut || (options.nested && name === 'input_requested')) return;
  const runtime = options.agent.runtime;
  let before: (() => Promise<void>) | undefined;
  let claimSlot: number | undefined;
  let expiresAt: string | undefined;
  switch (name) {
    case 'input_requested': {
      claimSlot = pauseSlot(lease);
      const checkpoint = checkpointFromContext(context, claimSlot, traceparent, scope.seal);
      scope.pausedCheckpoint = checkpoint;
      // The event carries the expiry too, so the checkpoint rebuilt from the log is this one.
      expiresAt = checkpoint.expires_at;
      before = async () => {
        await writeStep(lease, 'paused', { checkpoint });
        // Side by side: the pending index and the timer cost the pause no round trip of their own.
        await Promise.all([
          runtime.bus.checkpoints.save(scope.generationId, { checkpoint, params: options.params }),
          recordWaiting(runtime.bus, checkpoint),
        ]);
        // Stored: from here on its slot belongs to whoever resumes it, never to a release of ours.
        lease.ended = true;
      };
      break;
    }
    case 'completed': {
      // Only a resumed run can have a pause listed. Its entry is dropped without holding the run
      // up: `runtime.pending()` checks every entry against the claim log, so one left behind (a
      // crash, a closed bus) is never listed, only kept.
      // A job drops it only once its `finished` step shows it still held the run: a holder whose
      // lease lapsed would drop the entry of the question its successor asked.
      const forget = () => {
        if (options.start.kind === 'resume') void forgetWaiting(runtime.bus, scope.generationId).catch(() => undefined);
      };
      if (lease.mode === 'job') {
        before = async () => {
          await writeStep(lease, 'finished');
          forget();
        };
      } else {
        forget();
        // Done: a later failure (of a callback, of the context store) must not give the claim back.
        lease.ended = true;
      }
      break;
    }
    case 'failed':
      before = () => endFailedRun(lease, { error: scope.failure, permanent: isPermanentFailure(scope.failure) });
      break;
  }
  const heard = name === 'resumed' ? answersHeard(scope, context, answers) : answers;
  const data = eventData(name, context, {
    traceparent,
    expiresAt,
    claimSlot,
    ...(name === 'started' && { params: options.params }),
    ...(heard && { answers: heard }),
  });
  scope.publisher.emit(name, data, before);
}

/**
 * The answers `resumed` lists: on a resume its deadline made, the calls nobody answered are
 * neither answered nor declined (`input_expired` names them), only those given `on_expiry`.
 */
function answersHeard(
  scope: RunScope,
  context: GenerationContext,
  answers: ReadonlyMap<string, unknown> | undefined,
): ReadonlyMap<string, unknown> | undefined {
  const { start } = scope.options;
  if (answers === undefined || start.kind !== 'resume' || start.expiring !== true) return answers;
  const unanswered = unansweredAtDeadline(context.inputRequests);
  return new Map([...answers].filter(([callId]) => !unanswered.has(callId)));
}
