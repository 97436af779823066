import type { AgentBase } from '../agent/agent-types.js';
import type { Job, JobDelivery } from '../bus/bus.js';
import { InterludeError } from '../errors/interlude-error.js';
import { ProviderError } from '../errors/provider-error.js';
import type { GenerationResponse } from '../generation/generation-response.js';
import type { Runtime } from './runtime.js';

export type JobOutcome =
  | { status: GenerationResponse['status']; response: GenerationResponse }
  | { status: 'failed' | 'refused'; error: Error };

/**
 * Runs one job from the work queue: finds its agent, then generates or resumes (claiming the
 * checkpoint as the job, so a redelivered job may claim it again, and reusing the tool results
 * an interrupted delivery logged). Resolves with the outcome once the generation's events are
 * stored, so the worker can acknowledge; rejects only when the job should be delivered again.
 */
export async function runJob(options: {
  runtime: Runtime;
  agents?: readonly AgentBase[];
  job: Job;
  delivery: JobDelivery;
}): Promise<JobOutcome> {
  const { runtime, job, delivery } = options;
  const agent = options.agents?.find((candidate) => candidate.name === job.agent) ?? runtime.agents.get(job.agent);
  if (agent === undefined)
    return { status: 'refused', error: new TypeError(`No agent named ${job.agent} serves this queue`) };
  const generation = agent.generation(job.action, job.params);
  const traceparent = delivery.headers['traceparent'] ?? job.traceparent;
  const control = {
    claimant: job.id,
    recoverFromLog: delivery.attempt > 1,
    ...(traceparent !== undefined && { parentTraceparent: traceparent }),
  };
  try {
    const response =
      job.kind === 'generate'
        ? await generation.generateNow({ ...control, generationId: job.generation_id })
        : await generation.resumeNow(
            { checkpoint: job.checkpoint ?? (await storedCheckpoint(runtime, job)), answers: job.answers ?? {} },
            control,
          );
    return { status: response.status, response };
  } catch (error) {
    // A refused resume or a malformed job fails the same way every time: acknowledge it, do not retry.
    if (InterludeError.isInstance(error) && !ProviderError.isInstance(error)) return { status: 'refused', error };
    if (error instanceof TypeError) return { status: 'refused', error };
    if (ProviderError.isInstance(error) && !error.isRetryable) return { status: 'failed', error };
    throw error;
  }
}

async function storedCheckpoint(runtime: Runtime, job: Job) {
  const stored = await runtime.bus.checkpoints.load(job.generation_id);
  return stored?.checkpoint;
}
