import type { AgentBase } from '../agent/agent-types.js';
import type { InputTimer, Job, StoredCheckpoint } from '../bus/bus.js';
import { timerRefusal } from '../bus/sign-timer.js';
import { withCheckpointDefaults } from '../checkpoint/checkpoint-defaults.js';
import { pauseStanding } from '../claims/can-resume.js';
import { signedClaims } from '../claims/signed-claims.js';
import { FencedError } from '../errors/fenced-error.js';
import { ResumeError } from '../errors/resume-error.js';
import { GenerationRunner } from '../generation/generation.js';
import type { Runtime } from '../runtime/runtime.js';
import { expiryJobId } from './expiry-job-id.js';
import { storedPause } from './stored-pause.js';

/**
 * Meets one pause's deadline in this process (the memory bus's runtime does): when the pause
 * still waits, resumes it with the expiry outcomes, through the claim log like any resume, so it
 * never runs beside a racing answer or after a cancel. Resolves `gone` when there was nothing
 * left to expire, `fenced` when the run was taken over (its timer is the taker's to settle);
 * rejects (to be tried again) when the agent is unknown here or the resume failed.
 */
export async function meetDeadline(runtime: Runtime, timer: InputTimer): Promise<'resumed' | 'gone' | 'fenced'> {
  const due = await duePause(runtime, timer, undefined);
  if (due === undefined) return 'gone';
  try {
    await new GenerationRunner(due.agent, due.stored.checkpoint.action_name, due.stored.params).resumeNow(
      { checkpoint: due.stored.checkpoint, answers: {} },
      { expiring: true },
    );
    return 'resumed';
  } catch (error) {
    if (FencedError.isInstance(error)) return 'fenced';
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

/**
 * The stored pause a timer was set for, with its agent, while its deadline is still to be met: it
 * waits on a person, or the deadline's own run claimed it and the log shows it no further (a worker
 * that met it died or stalled, so the expiry job is run again, and takes that run over one epoch
 * up, or finds it stopped and makes sure of its stop). Answered, cancelled or resumed past, the
 * timer is settled.
 */
async function duePause(
  runtime: Runtime,
  timer: InputTimer,
  agents: readonly AgentBase[] | undefined,
): Promise<{ agent: AgentBase; stored: StoredCheckpoint } | undefined> {
  // One format: a timer naming no whole-number slot (or no generation, no due time) is no timer.
  if (timerRefusal(timer, undefined) !== undefined) return undefined;
  // The stored checkpoint if it verifies for the timer's slot, else the pause rebuilt from the log.
  const found = await storedPause(runtime, timer.generation_id, { slot: timer.claim_slot });
  const stored = found.verified ?? found.stored;
  const checkpoint = stored && withCheckpointDefaults(stored.checkpoint);
  if (
    stored === undefined ||
    checkpoint?.generation_id !== timer.generation_id ||
    checkpoint.claim_slot !== timer.claim_slot ||
    checkpoint.input_expires_at !== timer.due_at ||
    !(await deadlineOpen(runtime, timer))
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

/** Whether the pause still waits, or its slot is held by the run its deadline's own job started. */
async function deadlineOpen(runtime: Runtime, timer: InputTimer): Promise<boolean> {
  const log = signedClaims(runtime);
  const slot = timer.claim_slot;
  const standing = await pauseStanding(log, timer.generation_id, slot);
  if (standing !== 'claimed' || !runtime.bus.shared) return standing === 'waiting';
  const { record: claim } = await log.read(timer.generation_id, slot);
  return claim?.kind === 'claim' && claim.claimant === expiryJobId(timer.generation_id, slot);
}
