import type { Bus } from '../bus/bus.js';
import { ResumeError } from '../errors/resume-error.js';

/**
 * Why no checkpoint is stored under `generationId`. A bus that bounds its storage (`natsBus`)
 * removes a checkpoint once a run resumed from it completes; its log still says so, and a late
 * answer is told the truth rather than `not_found`: `expired` when the last question's deadline
 * resumed it, `cancelled` when it was cancelled, otherwise `already_resumed` (the loser of two
 * answers at once).
 */
export async function notStored(bus: Bus, generationId: string): Promise<ResumeError> {
  const events = await bus.events(generationId).catch(() => []);
  const lastAsked = events.findLastIndex((event) => event.event === 'input_requested');
  const sinceLastAsked = events.slice(lastAsked + 1).map((event) => event.event);
  if (sinceLastAsked.includes('cancelled')) {
    return new ResumeError('cancelled', `Generation ${generationId} was cancelled`);
  }
  if (sinceLastAsked.includes('input_expired')) {
    return new ResumeError('expired', `Generation ${generationId} stopped waiting for an answer at its deadline`);
  }
  if (events.some((event) => event.event === 'completed' && event.run !== 'start')) {
    return new ResumeError('already_resumed', `Generation ${generationId} was already resumed, and has completed`);
  }
  return new ResumeError('not_found', `No paused generation ${generationId} is stored`);
}
