import type { AgentBase } from '../agent/agent-types.js';
import type { Job, JobDelivery } from '../bus/bus.js';
import { InterludeError } from '../errors/interlude-error.js';
import { ProviderError } from '../errors/provider-error.js';
import type { GenerationResponse } from '../generation/generation-response.js';
import { verifyJob } from '../trust/sign-job.js';
import type { Runtime } from './runtime.js';

export type JobOutcome =
  | { status: GenerationResponse['status']; response: GenerationResponse }
  | { status: 'failed' | 'refused'; error: Error };

/**
 * Runs one job from the work queue: checks its signature (a job the runtime's keys did not sign,
 * or a resume job without its checkpoint, is refused before anything runs: `TrustError`), finds
 * its agent, then generates or resumes (claiming the checkpoint as the job, so a redelivered job
 * may claim it again, and reusing the tool results an interrupted delivery logged). Resolves with
 * the outcome once the generation's events are stored, so the worker can acknowledge; rejects
 * only when the job should be delivered again.
 */
export async function runJob(options: {
  runtime: Runtime;
  agents?: readonly AgentBase[];
  job: Job;
  delivery: JobDelivery;
}): Promise<JobOutcome> {
  const { runtime, job, delivery } = options;
  try {
    verifyJob(job, runtime.keys);
  } catch (error) {
    return { status: 'refused', error: error as Error };
  }
  const agent = options.agents?.find((candidate) => candidate.name === job.agent) ?? runtime.agents.get(job.agent);
  if (agent === undefined)
    return { status: 'refused', error: new TypeError(`No agent named ${job.agent} serves this queue`) };
  const generation = agent.generation(job.action, job.params);
  // The job's own trace context is signed; the transport's header is not.
  const traceparent = job.traceparent ?? delivery.headers['traceparent'];
  const control = {
    claimant: job.id,
    recoverFromLog: delivery.attempt > 1,
    ...(traceparent !== undefined && { parentTraceparent: traceparent }),
  };
  try {
    const response =
      job.kind === 'generate'
        ? await generation.generateNow({ ...control, generationId: job.generation_id })
        : await generation.resumeNow({ checkpoint: job.checkpoint, answers: job.answers ?? {} }, control);
    return { status: response.status, response };
  } catch (error) {
    // A refused resume or a malformed job fails the same way every time: acknowledge it, do not retry.
    if (InterludeError.isInstance(error) && !ProviderError.isInstance(error)) return { status: 'refused', error };
    if (error instanceof TypeError) return { status: 'refused', error };
    if (ProviderError.isInstance(error) && !error.isRetryable) return { status: 'failed', error };
    throw error;
  }
}
