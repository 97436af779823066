import { type Checkpoint, ResumeError, type Runtime } from '@interlude/core';
import { checkpointStanding } from '@interlude/core/internal';
import { coerceAnswer } from './coerce-answer.js';

/** How an answer was handled: resumed through the worker or in this process, or held until the turn's other questions are answered. */
export type AnswerOutcome =
  | { resumed: 'worker'; jobId: string }
  | { resumed: 'in-process'; status: string }
  | { resumed: false; waitingFor: string[] };

/**
 * Answers one question of a paused generation. A turn can ask several questions and resumes
 * once all have answers, so answers are held per generation until the last one arrives.
 *
 * Non-secret answers resume through the worker (`runtime.answerLater` queues a job). A secret
 * cannot go in a job: a job is stored on the bus, and a secret must reach its tool and nothing
 * else. So a turn with a secret answer resumes here, in-process, with `runtime.answer`.
 */
export class QuestionAnswerer {
  /** Answers given so far for turns with more than one question; in memory only, never logged. */
  readonly #drafts = new Map<string, Map<string, unknown>>();

  constructor(
    private readonly runtime: Runtime,
    private readonly queue: string,
  ) {}

  async answer(generationId: string, toolCallId: string, value: unknown): Promise<AnswerOutcome> {
    const stored = await this.runtime.bus.checkpoints.load(generationId);
    if (stored === undefined) {
      throw new ResumeError('not_found', `Generation ${generationId} is not waiting for an answer`);
    }
    await refuseUnlessWaiting(this.runtime, stored.checkpoint);
    const requests = stored.checkpoint.input_requests;
    const request = requests.find((candidate) => candidate.tool_call_id === toolCallId);
    if (request === undefined) {
      throw new ResumeError('unknown_call', `Generation ${generationId} has no question for call ${toolCallId}`);
    }
    const draft = this.#drafts.get(generationId) ?? new Map<string, unknown>();
    draft.set(toolCallId, coerceAnswer(request, value));
    const waitingFor = requests.map((candidate) => candidate.tool_call_id ?? '').filter((callId) => !draft.has(callId));
    if (waitingFor.length > 0) {
      this.#drafts.set(generationId, draft);
      return { resumed: false, waitingFor };
    }
    this.#drafts.delete(generationId);
    const answers = Object.fromEntries(draft);
    const hasSecret = requests.some(
      (candidate) => candidate.kind === 'secret' && answers[candidate.tool_call_id ?? ''] !== false,
    );
    if (hasSecret) {
      // Secrets never travel in a job (it is stored on the bus): resume in this process instead.
      try {
        const response = await this.runtime.answer(generationId, answers);
        return { resumed: 'in-process', status: response.status };
      } catch (error) {
        // A refused resume is the caller's to fix; a failed run is on the timeline (scrubbed).
        if (ResumeError.isInstance(error)) throw error;
        return { resumed: 'in-process', status: 'failed' };
      }
    }
    const { jobId } = await this.runtime.answerLater(generationId, answers, { queue: this.queue });
    return { resumed: 'worker', jobId };
  }
}

/**
 * Refuses an answer the generation can no longer take, saying why as a resume would: past its
 * deadline (`expired`), cancelled, or resumed already (`not_found`: nothing waits on it).
 */
async function refuseUnlessWaiting(runtime: Runtime, checkpoint: Checkpoint): Promise<void> {
  const deadline = checkpoint.input_expires_at;
  if (deadline !== undefined && Date.parse(deadline) <= Date.now()) {
    throw new ResumeError('expired', `Generation ${checkpoint.generation_id} stopped waiting at ${deadline}`);
  }
  const standing = await checkpointStanding(runtime, checkpoint);
  if (standing === 'cancelled')
    throw new ResumeError('cancelled', `Generation ${checkpoint.generation_id} was cancelled`);
  if (standing === 'claimed') {
    throw new ResumeError('not_found', `Generation ${checkpoint.generation_id} is not waiting for an answer`);
  }
}
