import type { Checkpoint } from '../checkpoint/checkpoint.js';
import { ResumeError } from '../errors/resume-error.js';
import type { InputRequestJSON } from '../input-request/input-request.js';
import { existingScrubber } from './generation-secrets.js';
import { isSecretOptionPlaceholder } from './scrub-input-request.js';

/**
 * The answers a resume gives its tools: an answer that picks a scrubbed option becomes the
 * option's real value, which only the process that asked holds (with the generation's secrets;
 * it is never stored). Anywhere else — another process, or this one after a restart — the resume
 * is refused with `secret_option` before anything runs, rather than handing the tool a
 * placeholder it never offered.
 */
export function restoreSecretOptions(checkpoint: Checkpoint, answers: Map<string, unknown>): Map<string, unknown> {
  const picked = pickedSecretOptions(checkpoint, answers);
  if (picked.length === 0) return answers;
  const scrubber = existingScrubber(checkpoint.generation_id);
  const restored = new Map(answers);
  for (const { request, placeholder } of picked) {
    const callId = request.tool_call_id as string;
    const held = scrubber?.heldOption(callId, placeholder);
    if (held === undefined) {
      throw new ResumeError(
        'secret_option',
        `The answer for call ${callId} (${request.tool_name}) picks an option whose value held a secret answer; only the process that asked knows that value, so answer there with resumeNow() or runtime.answer()`,
        { toolCallId: callId },
      );
    }
    restored.set(callId, held.value);
  }
  return restored;
}

/**
 * `resumeLater()`'s refusal of an answer that picks a scrubbed option: the job would carry only
 * the placeholder, and a worker in another process could not map it back.
 */
export function refuseSecretOptionsInJob(checkpoint: Checkpoint, answers: Map<string, unknown>): void {
  const [first] = pickedSecretOptions(checkpoint, answers);
  if (first === undefined) return;
  const callId = first.request.tool_call_id as string;
  throw new ResumeError(
    'secret_in_job',
    `The answer for call ${callId} (${first.request.tool_name}) picks an option whose value held a secret answer, which only this process knows; answer it with resumeNow() or runtime.answer()`,
    { toolCallId: callId },
  );
}

function pickedSecretOptions(
  checkpoint: Checkpoint,
  answers: Map<string, unknown>,
): Array<{ request: InputRequestJSON; placeholder: string }> {
  return checkpoint.input_requests.flatMap((request) => {
    const answer = answers.get(request.tool_call_id as string);
    if (request.kind !== 'choice' || !isSecretOptionPlaceholder(answer)) return [];
    return [{ request, placeholder: answer }];
  });
}
