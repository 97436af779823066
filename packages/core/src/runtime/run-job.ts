import { z } from 'zod';
import type { AgentBase } from '../agent/agent-types.js';
import type { Job, JobDelivery, JobVerdict } from '../bus/bus.js';
import { type Acquired, acquireRun } from '../claims/acquire-run.js';
import { claimCheckpoint } from '../claims/claim-target.js';
import { endFailedRun } from '../claims/run-lease.js';
import { settleStoppedRun } from '../claims/settle-stopped-run.js';
import { signedClaims } from '../claims/signed-claims.js';
import { jobSchema } from '../contract/record-schemas.js';
import { FencedError } from '../errors/fenced-error.js';
import { InterludeError } from '../errors/interlude-error.js';
import { ResumeError } from '../errors/resume-error.js';
import { checkResumeFor } from '../generation/check-resume.js';
import { GenerationRunner } from '../generation/generation.js';
import type { GenerationResponse } from '../generation/generation-response.js';
import { runKeyOf } from '../generation/resume-context.js';
import { MAX_NESTING_DEPTH, nestsDeeperThan } from '../json/nesting-depth.js';
import { verifyJob } from '../trust/sign-job.js';
import { announceJobFailure } from './announce-job-failure.js';
import { isPermanentFailure } from './permanent-failure.js';
import type { Runtime } from './runtime.js';

export type JobOutcome =
  | { status: GenerationResponse['status']; response: GenerationResponse }
  /** Another delivery of a job whose run had already stopped: nothing ran; the stop was made sure of. */
  | { status: 'duplicate'; stop: 'paused' | 'finished' }
  /** The run was taken over by another delivery (this one stalled past its lease): it stopped at once. */
  | { status: 'fenced'; error: Error }
  | { status: 'failed' | 'refused'; error: Error };

/**
 * Runs one job from the work queue. It checks the job (its shape and depth, then its signature:
 * a job the runtime's keys did not sign, or a resume job without its checkpoint, is refused
 * before anything runs with `TrustError`), then claims its run in the claim log as the job
 * (slot 0 for a fresh generation, the checkpoint's slot for a resume), so that:
 * - a delivery of a job whose run already stopped (its ack was lost, the server restarted) runs
 *   nothing and only makes sure the stop was stored and announced;
 * - a delivery of a job whose run is still open (its worker died, or stalled past the ack wait)
 *   takes the run over one epoch up, fencing the old holder out, and runs it again from the log:
 *   calls with a logged result are reused, and a call that started without one runs again only
 *   if its tool is `idempotent` (otherwise it becomes a question to a person);
 * - a job delivered more than `delivery.maxAttempts` times gives its claim back and is refused.
 *
 * Resolves with the outcome (see `jobVerdict` for what the queue does with it); rejects only when
 * the job should be delivered again.
 */
export async function runJob(options: {
  runtime: Runtime;
  agents?: readonly AgentBase[];
  job: Job;
  delivery: JobDelivery;
}): Promise<JobOutcome> {
  const { runtime, job, delivery } = options;
  const shape = jobShape.safeParse(asWritten(job));
  if (!shape.success) {
    return refuse(new TypeError(`The job is malformed: not a version 1 job (${issuesOf(shape.error)})`));
  }
  // Before anything recursive touches it (its signature is checked over its canonical JSON): a
  // job nested absurdly deep would overflow the stack.
  if (nestsDeeperThan(job)) {
    const error = new ResumeError('invalid_checkpoint', `The job nests deeper than ${MAX_NESTING_DEPTH} levels`);
    return refuse(error, runtime.keys === undefined ? { job, runtime } : undefined);
  }
  try {
    verifyJob(job, runtime.keys);
  } catch (error) {
    // Not announced: a failed event written (and signed) for a job nobody signed would carry the forgery on.
    return refuse(error as Error);
  }
  const trusted = { job, runtime };
  const agent = options.agents?.find((candidate) => candidate.name === job.agent) ?? runtime.agents.get(job.agent);
  if (agent === undefined) return refuse(new TypeError(`No agent named ${job.agent} serves this queue`), trusted);
  // The job's own trace context is signed; the transport's header is not.
  const traceparent = job.traceparent ?? delivery.headers['traceparent'];
  try {
    const generation = new GenerationRunner(agent, job.action, job.params);
    const claim = await claimJob(agent, job);
    if (claim.acquired.outcome === 'stopped') {
      if (claim.acquired.record !== undefined) {
        await settleStoppedRun({
          agent,
          action: job.action,
          params: job.params,
          generationId: job.generation_id,
          run: claim.run,
          record: claim.acquired.record,
        });
      }
      return { status: 'duplicate', stop: claim.acquired.stop === 'paused' ? 'paused' : 'finished' };
    }
    const { lease } = claim.acquired;
    if (delivery.attempt > delivery.maxAttempts) {
      // Given up: the run's claim goes back, so the checkpoint can still be resumed by a person.
      await endFailedRun(lease, { error: undefined, permanent: false });
      const error = new InterludeError(
        'too_many_deliveries',
        `The job was delivered ${delivery.attempt} times (at most ${delivery.maxAttempts})`,
      );
      return refuse(error, { ...trusted, run: { run: claim.run, epoch: lease.epoch } });
    }
    const control = {
      lease,
      ...(traceparent !== undefined && { parentTraceparent: traceparent }),
      ...(job.conversation_id !== undefined && { parentConversationId: job.conversation_id }),
      ...(job.expiry === true && { expiring: true }),
    };
    const response =
      job.kind === 'generate'
        ? await generation.generateNow(control)
        : await generation.resumeNow({ checkpoint: job.checkpoint, answers: job.answers ?? {} }, control);
    return { status: response.status, response };
  } catch (error) {
    if (FencedError.isInstance(error)) return { status: 'fenced', error };
    // Another resume has the checkpoint: the generation is in its hands, so nothing is announced.
    if (ResumeError.isInstance(error) && error.code === 'already_resumed') return { status: 'refused', error };
    // A refused resume or a malformed job fails the same way every time: acknowledge it, do not retry.
    if (ResumeError.isInstance(error) || error instanceof TypeError) return refuse(error as Error, trusted);
    if (isPermanentFailure(error)) return { status: 'failed', error: error as Error };
    throw error;
  }
}

/**
 * What the queue does with a job's outcome: acknowledge it (it ran, paused, failed for good, or
 * was a duplicate), leave it to the delivery that took it over, or refuse it to the dead letters.
 */
export function jobVerdict(outcome: JobOutcome): JobVerdict {
  switch (outcome.status) {
    case 'fenced':
      return { verdict: 'abandon' };
    case 'refused': {
      const code = InterludeError.isInstance(outcome.error) ? outcome.error.code : 'invalid_job';
      return { verdict: 'refuse', reason: { code, message: outcome.error.message } };
    }
    default:
      return { verdict: 'done' };
  }
}

interface JobClaim {
  acquired: Acquired;
  /** The run's key in the event log: `start`, or the resumed checkpoint's digest. */
  run: string;
}

/** Checks the job's checkpoint (a resume), then claims its run as the job. */
async function claimJob(agent: AgentBase, job: Job): Promise<JobClaim> {
  if (job.kind === 'generate') {
    const acquired = await acquireRun({
      log: signedClaims(agent.runtime),
      // A fresh run's records are signed with its job's key, which every worker that runs the job holds.
      keyId: job.key_id,
      generationId: job.generation_id,
      slot: 0,
      mode: 'job',
      claimant: job.id,
    });
    return { acquired, run: 'start' };
  }
  // (A resume job always carries its checkpoint: `verifyJob` refused one without.)
  const checked = await checkResumeFor(
    agent,
    job.action,
    job.params,
    { checkpoint: job.checkpoint, answers: job.answers ?? {} },
    job.expiry === true,
  );
  if (checked.checkpoint.generation_id !== job.generation_id) {
    throw new ResumeError('invalid_checkpoint', 'The job names another generation than its checkpoint');
  }
  const acquired = await claimCheckpoint(agent.runtime, checked.checkpoint, {
    mode: 'job',
    claimant: job.id,
  });
  return { acquired, run: runKeyOf(checked.canonical) };
}

/**
 * A refused job, announced with a `failed` event when it can be trusted (its signature checked,
 * or signing off), in its run when it claimed one.
 */
async function refuse(
  error: Error,
  announce?: { job: Job; runtime: Runtime; run?: { run: string; epoch: number } },
): Promise<JobOutcome> {
  if (announce !== undefined) await announceJobFailure(announce.runtime.bus, announce.job, error, announce.run);
  return { status: 'refused', error };
}

/** The fields every job has, with their types: anything else is refused before it is read further. */
/**
 * A job as the wire contract has it (`jobSchema`), its checkpoint left to the resume to check
 * (`parseCheckpoint`, whose refusals say what is wrong with it: `unsupported_version`, …).
 */
const jobShape = jobSchema.extend({ checkpoint: z.unknown().exactOptional() });

/** Its fields as JSON writes them: one left undefined (a job made in this process) is left out. */
function asWritten(job: unknown): unknown {
  if (typeof job !== 'object' || job === null || Array.isArray(job)) return job;
  return Object.fromEntries(Object.entries(job).filter(([, value]) => value !== undefined));
}

/** A parse's problems in a line, naming each field: never the values (a job may carry answers). */
function issuesOf(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join('.') || 'job'}: ${issue.message}`)
    .join('; ');
}
