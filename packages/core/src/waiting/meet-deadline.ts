import type { AgentBase } from '../agent/agent-types.js';
import type { InputTimer } from '../bus/bus.js';
import { ResumeError } from '../errors/resume-error.js';
import type { Runtime } from '../runtime/runtime.js';
import { awaitsAnswer } from './awaits-answer.js';

/** How a due deadline is met: resumed here and now, or queued as a job for a worker. */
export type DeadlineRoute = { inProcess: true } | { inProcess: false; queue: string; agents?: readonly AgentBase[] };

/**
 * Meets one pause's deadline: when the pause still waits (its checkpoint is the one the timer
 * was set for and nobody claimed it), resumes it with the expiry outcomes, through the claim log
 * like any resume, so it never runs beside a racing answer or after a cancel. Resolves `gone`
 * when there was nothing left to expire; rejects (to be tried again) when the agent is unknown
 * here or the resume failed in a way that may pass.
 */
export async function meetDeadline(
  runtime: Runtime,
  timer: InputTimer,
  route: DeadlineRoute,
): Promise<'resumed' | 'queued' | 'gone'> {
  const stored = await runtime.bus.checkpoints.load(timer.generation_id);
  const checkpoint = stored?.checkpoint;
  if (
    stored === undefined ||
    checkpoint?.generation_id !== timer.generation_id ||
    checkpoint.claim_slot !== timer.claim_slot ||
    checkpoint.input_expires_at !== timer.due_at ||
    !(await awaitsAnswer(runtime.bus.claims, timer.generation_id, timer.claim_slot))
  ) {
    return 'gone';
  }
  const listed = route.inProcess ? undefined : route.agents?.find((agent) => agent.name === checkpoint.agent);
  const agent = listed ?? runtime.agents.get(checkpoint.agent);
  if (agent === undefined)
    throw new Error(`No agent named ${checkpoint.agent} is defined here to expire ${timer.generation_id}`);
  const generation = agent.generation(checkpoint.action_name, stored.params);
  try {
    if (route.inProcess) {
      await generation.resumeNow({ checkpoint, answers: {} }, { expiring: true });
      return 'resumed';
    }
    await generation.expireLater(checkpoint, route.queue);
    return 'queued';
  } catch (error) {
    // Answered or cancelled meanwhile, or refused for a reason that will not change: nothing to do.
    if (ResumeError.isInstance(error)) return 'gone';
    throw error;
  }
}
