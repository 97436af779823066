import type { AgentBase } from '../agent/agent-types.js';
import type { InputTimer, Job, StoredCheckpoint } from '../bus/bus.js';
import { pauseStanding } from '../claims/can-resume.js';
import { ResumeError } from '../errors/resume-error.js';
import { GenerationRunner } from '../generation/generation.js';
import type { Runtime } from '../runtime/runtime.js';

/**
 * Meets one pause's deadline in this process (the memory bus's runtime does): when the pause
 * still waits, resumes it with the expiry outcomes, through the claim log like any resume, so it
 * never runs beside a racing answer or after a cancel. Resolves `gone` when there was nothing
 * left to expire; rejects (to be tried again) when the agent is unknown here or the resume failed.
 */
export async function meetDeadline(runtime: Runtime, timer: InputTimer): Promise<'resumed' | 'gone'> {
  const due = await duePause(runtime, timer, undefined);
  if (due === undefined) return 'gone';
  try {
    await new GenerationRunner(due.agent, due.stored.checkpoint.action_name, due.stored.params).resumeNow(
      { checkpoint: due.stored.checkpoint, answers: {} },
      { expiring: true },
    );
    return 'resumed';
  } catch (error) {
    // Answered or cancelled meanwhile, or refused for a reason that will not change: nothing to do.
    if (ResumeError.isInstance(error)) return 'gone';
    throw error;
  }
}

/**
 * The job that meets one pause's deadline, for a worker to run as it runs a queued job (`runJob`),
 * or undefined when the pause no longer waits. `agents` are the worker's (the runtime's own are
 * used for names not listed).
 */
export async function expiryJobFor(
  runtime: Runtime,
  timer: InputTimer,
  agents?: readonly AgentBase[],
): Promise<Job | undefined> {
  const due = await duePause(runtime, timer, agents);
  if (due === undefined) return undefined;
  try {
    return await new GenerationRunner(due.agent, due.stored.checkpoint.action_name, due.stored.params).expiryJob(
      due.stored.checkpoint,
    );
  } catch (error) {
    if (ResumeError.isInstance(error)) return undefined;
    throw error;
  }
}

/** The stored pause a timer was set for, with its agent, if it still waits on a person. */
async function duePause(
  runtime: Runtime,
  timer: InputTimer,
  agents: readonly AgentBase[] | undefined,
): Promise<{ agent: AgentBase; stored: StoredCheckpoint } | undefined> {
  const stored = await runtime.bus.checkpoints.load(timer.generation_id);
  const checkpoint = stored?.checkpoint;
  if (
    stored === undefined ||
    checkpoint?.generation_id !== timer.generation_id ||
    checkpoint.claim_slot !== timer.claim_slot ||
    checkpoint.input_expires_at !== timer.due_at ||
    (await pauseStanding(runtime.bus.claims, timer.generation_id, timer.claim_slot)) !== 'waiting'
  ) {
    return undefined;
  }
  const agent =
    agents?.find((candidate) => candidate.name === checkpoint.agent) ?? runtime.agents.get(checkpoint.agent);
  if (agent === undefined) {
    throw new Error(`No agent named ${checkpoint.agent} is defined here to expire ${timer.generation_id}`);
  }
  return { agent, stored };
}
