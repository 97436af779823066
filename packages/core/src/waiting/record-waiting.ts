import type { Bus } from '../bus/bus.js';
import type { Checkpoint } from '../checkpoint/checkpoint.js';

/**
 * Lists a stored pause in the bus's pending index and, when its questions expire, sets its
 * timer. Called once its checkpoint is stored, before the pause is announced, so whoever hears
 * the question finds it listed, and a deadline is never announced without its timer.
 */
export async function recordWaiting(bus: Bus, checkpoint: Checkpoint, askedAt = new Date()): Promise<void> {
  const slot = checkpoint.claim_slot as number;
  const base = { version: 1 as const, generation_id: checkpoint.generation_id, agent: checkpoint.agent };
  const deadline = checkpoint.input_expires_at;
  await Promise.all([
    bus.pending?.put({
      ...base,
      action: checkpoint.action_name,
      claim_slot: slot,
      input_requests: checkpoint.input_requests,
      asked_at: askedAt.toISOString(),
      ...(deadline !== undefined && { input_expires_at: deadline }),
      ...(checkpoint.audience !== undefined && { audience: checkpoint.audience }),
    }),
    deadline === undefined
      ? undefined
      : bus.timers?.schedule({ ...base, action: checkpoint.action_name, claim_slot: slot, due_at: deadline }),
  ]);
}

/** Takes a generation that will not pause again (completed, cancelled) out of the pending index. */
export async function forgetWaiting(bus: Bus, generationId: string): Promise<void> {
  await bus.pending?.remove(generationId);
}
