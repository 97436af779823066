import { randomUUID } from 'node:crypto';
import { type ResolvedPrompt, resolvePrompt } from '../agent/action.js';
import type { AgentBase } from '../agent/agent-types.js';
import type { Enqueued, Job } from '../bus/bus.js';
import { claimCheckpoint } from '../claims/claim-target.js';
import { loggedResultsOfUnknownCalls, withLoggedResults } from '../claims/logged-results.js';
import { recoverRun } from '../claims/recover-run.js';
import { createRunLease, type RunLease } from '../claims/run-lease.js';
import { signedClaims } from '../claims/signed-claims.js';
import { ResumeError } from '../errors/resume-error.js';
import { DEFAULT_QUEUE } from '../runtime/runtime.js';
import { refuseSecretOptionsInJob, restoreSecretOptions } from '../secrets/secret-options.js';
import { runOutsideToolScope } from '../tool/tool-context.js';
import { signJob } from '../trust/sign-job.js';
import { expiryJobId } from '../waiting/expiry-job-id.js';
import { checkResumeFor, type VerifiedPause } from './check-resume.js';
import type { GenerationResponse } from './generation-response.js';
import { createGenerationStream, type GenerationStream, type StreamSink } from './generation-stream.js';
import type { Generation, ResumeInput, RunControl } from './generation-types.js';
import { contextFromCheckpoint, runKeyOf } from './resume-context.js';
import { runGeneration } from './run-generation.js';

/**
 * What the framework adds to a caller's `RunControl` on its own paths (workers, deadlines,
 * delegation). Kept off the public type: a user who set them would skip the claim log's checks.
 */
export interface InternalRunControl extends RunControl {
  /** Run as a delegated generation that cannot pause (see `delegate()`). */
  nested?: boolean;
  /**
   * A claim already made for this run, held instead of claiming: how `runJob` hands a job's run
   * (which it claimed, or took over from a stalled delivery) to the generation.
   */
  lease?: RunLease;
  /**
   * The resume a pause's deadline makes: each question gets its `on_expiry` outcome (the answers
   * given are ignored), an `input_expired` event comes first, and the deadline must have passed.
   * Set by the timers that meet deadlines (`runtime` on the memory bus, workers on NATS).
   */
  expiring?: boolean;
  /** The pause as `storedPause` verified it, for a resume by id (`runtime.answer`): see `ResumeExpectations.verified`. */
  verified?: VerifiedPause;
}

/** Generation ids are `gen_` + 32 hex digits: safe as NATS subject tokens and KV keys. */
export function newGenerationId(): string {
  return `gen_${randomUUID().replaceAll('-', '')}`;
}

/**
 * The `Generation` an agent hands out (see `generation-types.ts` for what each method promises).
 * The framework's own paths construct it directly to pass an `InternalRunControl`. The action
 * runs again on every call here, which rebuilds its tools and instructions. A generation started
 * inside a tool body (delegated, or directly) runs wholly outside that body's scope — its action
 * function, its tools, its callbacks — so `InputRequest.answerFor()` there never reads the
 * parent's answer, which may be a secret the child's scrubber does not know.
 */
export class GenerationRunner implements Generation {
  constructor(
    private readonly agent: AgentBase,
    readonly actionName: string,
    readonly params: unknown,
  ) {}

  /** Runs until the generation finishes or pauses. Throws the (scrubbed) failure. */
  generateNow(control: InternalRunControl = {}): Promise<GenerationResponse> {
    return runOutsideToolScope(() => this.start(control));
  }

  /** Like `generateNow()`, yielding parts as they happen; `await stream.response` after the loop. */
  stream(control: InternalRunControl = {}): GenerationStream {
    return createGenerationStream((sink) => runOutsideToolScope(() => this.start(control, sink)));
  }

  /** Checks everything, then resumes a paused generation with the person's answers. */
  resumeNow(input: ResumeInput, control: InternalRunControl = {}): Promise<GenerationResponse> {
    return runOutsideToolScope(() => this.resume(input, control));
  }

  /** `resumeNow()` as a stream of parts. */
  resumeStream(input: ResumeInput, control: InternalRunControl = {}): GenerationStream {
    return createGenerationStream((sink) => runOutsideToolScope(() => this.resume(input, control, sink)));
  }

  /** Checks the action, then queues the generation for a worker. */
  async generateLater(
    options: { queue?: string; generationId?: string } = {},
  ): Promise<{ generationId: string; jobId: string }> {
    await runOutsideToolScope(() => this.prompt());
    const generationId = options.generationId ?? newGenerationId();
    const job = this.job('generate', generationId);
    await this.enqueue(options.queue, job);
    return { generationId, jobId: job.id };
  }

  /** Checks the checkpoint and answers as `resumeNow()` would, then queues the resume for a worker. Secret answers are refused: a job is stored. */
  async resumeLater(
    input: ResumeInput & { queue?: string; jobId?: string },
    control: Pick<InternalRunControl, 'verified'> = {},
  ): Promise<{ generationId: string; jobId: string }> {
    const checked = await this.check(input, false, control.verified);
    const secret = checked.checkpoint.input_requests.find((request) => {
      // A secret left unanswered (its paused delegation stays paused) goes nowhere near the job.
      const answer = checked.answers.get(request.tool_call_id as string);
      return request.kind === 'secret' && answer !== undefined && answer !== false;
    });
    if (secret !== undefined) {
      throw new ResumeError(
        'secret_in_job',
        `Call ${secret.tool_call_id} (${secret.tool_name}) asks for a secret; a job is stored on the bus, so answer it with resumeNow() or runtime.answer()`,
        { toolCallId: secret.tool_call_id as string },
      );
    }
    refuseSecretOptionsInJob(checked.checkpoint, checked.answers);
    const job: Job = {
      ...this.job('resume', checked.checkpoint.generation_id),
      ...(input.jobId !== undefined && { id: input.jobId }),
      checkpoint: checked.checkpoint,
      answers: input.answers,
    };
    const { duplicate } = await this.enqueue(input.queue, job);
    if (duplicate) {
      throw new ResumeError(
        'already_resumed',
        `Generation ${checked.checkpoint.generation_id} was answered already: job ${job.id} is queued`,
      );
    }
    return { generationId: checked.checkpoint.generation_id, jobId: job.id };
  }

  private async start(control: InternalRunControl, stream?: StreamSink): Promise<GenerationResponse> {
    const prompt = await this.prompt();
    const bus = this.agent.runtime.bus;
    // A fresh in-process run claims nothing (nobody else can know its id yet); its pause hands out slot 0.
    const lease =
      control.lease ??
      createRunLease({
        log: signedClaims(this.agent.runtime),
        generationId: control.generationId ?? newGenerationId(),
        claimant: undefined,
        epoch: 1,
        mode: control.nested ? 'detached' : 'in_process',
        cursor: 0,
      });
    const recovery = lease.follows === undefined ? undefined : await recoverRun(bus, lease, 'start');
    return runGeneration({
      agent: this.agent,
      prompt,
      params: this.params,
      start: { kind: 'fresh', generationId: lease.generationId },
      lease,
      ...this.runExtras(control, stream),
      ...(recovery && { recovery }),
    });
  }

  private async resume(
    input: ResumeInput,
    control: InternalRunControl,
    stream?: StreamSink,
  ): Promise<GenerationResponse> {
    const prompt = await this.prompt();
    // Serialized once, by the check: the run key hashes it (and a checkpoint without a slot is claimed by it).
    const {
      checkpoint,
      state,
      canonical,
      answers: given,
      turnCalls,
    } = await this.check(input, control.expiring === true, control.verified);
    const answers = restoreSecretOptions(checkpoint, given);
    const bus = this.agent.runtime.bus;
    const run = runKeyOf(canonical);
    let lease = control.lease;
    if (lease === undefined) {
      // In-process: no claimant, so anything but a run of ours is a refusal (`already_resumed`).
      const acquired = await claimCheckpoint(this.agent.runtime, checkpoint, { mode: 'in_process' });
      if (acquired.outcome !== 'run') throw new Error('an in-process claim cannot find a stopped run of its own');
      lease = acquired.lease;
    }
    const recovered = lease.follows === undefined ? undefined : await recoverRun(bus, lease, run);
    const recovery = withLoggedResults(recovered, await loggedResultsOfUnknownCalls(bus, state));
    return runGeneration({
      agent: this.agent,
      prompt,
      params: this.params,
      start: {
        kind: 'resume',
        checkpoint,
        context: contextFromCheckpoint(state, turnCalls, prompt, this.agent.provider),
        answers,
        run,
        ...(control.expiring === true && { expiring: true }),
      },
      lease,
      ...this.runExtras(control, stream),
      ...(recovery && { recovery }),
    });
  }

  private check(input: ResumeInput, expiring = false, verified?: VerifiedPause) {
    return checkResumeFor(this.agent, this.actionName, this.params, input, expiring, verified);
  }

  /**
   * The job of the resume a pause's deadline makes (see `InternalRunControl.expiring`), checked and
   * signed, for a worker to run as it runs a queued job. Its id is fixed per pause, so a deadline
   * met twice (a worker died meeting it) is one job: the second delivery finds the first one's
   * claim and takes its run over, or finds it done.
   */
  async expiryJob(checkpoint: unknown): Promise<Job> {
    const checked = await this.check({ checkpoint, answers: {} }, true);
    const { generation_id: generationId, claim_slot: slot } = checked.checkpoint;
    const job: Job = {
      ...this.job('resume', generationId),
      id: expiryJobId(generationId, slot),
      checkpoint: checked.checkpoint,
      answers: {},
      expiry: true,
    };
    return signJob(job, this.agent.runtime.keys);
  }

  private async prompt(): Promise<ResolvedPrompt> {
    const action = this.agent.actions[this.actionName];
    if (action === undefined) throw new TypeError(`Agent ${this.agent.name} has no action ${this.actionName}`);
    return resolvePrompt(this.actionName, action, this.params, this.agent.instructions);
  }

  /**
   * Queues a job, signed, with the caller's trace context in the job and in the transport's
   * headers, and, for a new generation, the conversation of the generation enqueuing it, if one
   * is (a resume joins the conversation its generation started in: its checkpoint says which).
   */
  private async enqueue(queue: string | undefined, job: Job): Promise<Enqueued> {
    const { runtime } = this.agent;
    const traceparent = runtime.telemetry?.currentTraceparent?.();
    const conversationId = job.kind === 'generate' ? runtime.telemetry?.currentConversationId?.() : undefined;
    const traced = signJob(
      {
        ...job,
        ...(traceparent !== undefined && { traceparent }),
        ...(conversationId !== undefined && { conversation_id: conversationId }),
      },
      runtime.keys,
    );
    return runtime.bus.jobs.enqueue(queue ?? DEFAULT_QUEUE, traced, traceparent === undefined ? {} : { traceparent });
  }

  private job(kind: Job['kind'], generationId: string): Job {
    return {
      version: 1,
      id: randomUUID(),
      kind,
      agent: this.agent.name,
      action: this.actionName,
      params: this.params,
      generation_id: generationId,
    };
  }

  private runExtras(control: InternalRunControl, stream: StreamSink | undefined) {
    return {
      ...(stream && { stream }),
      ...(control.signal && { signal: control.signal }),
      ...(control.parentTraceparent && { parentTraceparent: control.parentTraceparent }),
      ...(control.parentConversationId && { parentConversationId: control.parentConversationId }),
      ...(control.nested && { nested: true }),
    };
  }
}
