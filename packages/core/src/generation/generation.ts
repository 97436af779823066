import { randomUUID } from 'node:crypto';
import { type ResolvedPrompt, resolvePrompt } from '../agent/action.js';
import type { AgentBase } from '../agent/agent-types.js';
import type { Job } from '../bus/bus.js';
import { ResumeError } from '../errors/resume-error.js';
import { DEFAULT_QUEUE } from '../runtime/runtime.js';
import { refuseSecretOptionsInJob, restoreSecretOptions } from '../secrets/secret-options.js';
import { runOutsideToolScope } from '../tool/tool-context.js';
import { signJob } from '../trust/sign-job.js';
import { checkResume } from './check-resume.js';
import { claimCheckpoint } from './claim-checkpoint.js';
import type { GenerationResponse } from './generation-response.js';
import { createGenerationStream, type GenerationStream, type StreamSink } from './generation-stream.js';
import { recoverResults } from './recover-results.js';
import { contextFromCheckpoint, runKeyOf } from './resume-context.js';
import { runGeneration } from './run-generation.js';

export interface ResumeInput {
  /** The checkpoint from a paused response, as plain JSON (it may have been through a database). */
  checkpoint: unknown;
  /** Answers by tool call id. */
  answers: Record<string, unknown>;
}

export interface RunControl {
  signal?: AbortSignal;
  /** Use this id for a fresh generation (a job carries one). */
  generationId?: string;
  /** Who claims the checkpoint on resume: a job's id, so a redelivered job may claim again. */
  claimant?: string;
  parentTraceparent?: string;
  /** Run as a delegated generation that cannot pause (see `delegate()`). */
  nested?: boolean;
  /** Reuse the tool results an interrupted run of the same job logged (a redelivered job). */
  recoverFromLog?: boolean;
}

/** Generation ids are `gen_` + 32 hex digits: safe as NATS subject tokens and KV keys. */
export function newGenerationId(): string {
  return `gen_${randomUUID().replaceAll('-', '')}`;
}

/**
 * One action of one agent with its params: start it, stream it, resume it, or hand it to a worker.
 * The action runs again on every call here, which rebuilds its tools and instructions. A generation
 * started inside a tool body (delegated, or directly) runs wholly outside that body's scope — its
 * action function, its tools, its callbacks — so `InputRequest.answerFor()` there never reads the
 * parent's answer, which may be a secret the child's scrubber does not know.
 */
export class Generation {
  constructor(
    private readonly agent: AgentBase,
    readonly actionName: string,
    readonly params: unknown,
  ) {}

  /** Runs until the generation finishes or pauses. Throws the (scrubbed) failure. */
  generateNow(control: RunControl = {}): Promise<GenerationResponse> {
    return runOutsideToolScope(() => this.start(control));
  }

  /** Like `generateNow()`, yielding parts as they happen; `await stream.response` after the loop. */
  stream(control: RunControl = {}): GenerationStream {
    return createGenerationStream((sink) => runOutsideToolScope(() => this.start(control, sink)));
  }

  /** Checks everything, then resumes a paused generation with the person's answers. */
  resumeNow(input: ResumeInput, control: RunControl = {}): Promise<GenerationResponse> {
    return runOutsideToolScope(() => this.resume(input, control));
  }

  /** `resumeNow()` as a stream of parts. */
  resumeStream(input: ResumeInput, control: RunControl = {}): GenerationStream {
    return createGenerationStream((sink) => runOutsideToolScope(() => this.resume(input, control, sink)));
  }

  /** Checks the action, then queues the generation for a worker. */
  async generateLater(
    options: { queue?: string; generationId?: string } = {},
  ): Promise<{ generationId: string; jobId: string }> {
    runOutsideToolScope(() => this.prompt());
    const generationId = options.generationId ?? newGenerationId();
    const job = this.job('generate', generationId);
    await this.enqueue(options.queue, job);
    return { generationId, jobId: job.id };
  }

  /** Checks the checkpoint and answers as `resumeNow()` would, then queues the resume for a worker. Secret answers are refused: a job is stored. */
  async resumeLater(input: ResumeInput & { queue?: string }): Promise<{ generationId: string; jobId: string }> {
    const checked = await this.check(input);
    const secret = checked.checkpoint.input_requests.find(
      (request) => request.kind === 'secret' && checked.answers.get(request.tool_call_id as string) !== false,
    );
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
      checkpoint: checked.checkpoint,
      answers: input.answers,
    };
    await this.enqueue(input.queue, job);
    return { generationId: checked.checkpoint.generation_id, jobId: job.id };
  }

  private async start(control: RunControl, stream?: StreamSink): Promise<GenerationResponse> {
    const prompt = this.prompt();
    const generationId = control.generationId ?? newGenerationId();
    const recovered = control.recoverFromLog
      ? await recoverResults(this.agent.runtime.bus, generationId, 'start')
      : undefined;
    return runGeneration({
      agent: this.agent,
      prompt,
      params: this.params,
      start: { kind: 'fresh', generationId },
      ...this.runExtras(control, stream),
      ...(recovered && { recovered }),
    });
  }

  private async resume(input: ResumeInput, control: RunControl, stream?: StreamSink): Promise<GenerationResponse> {
    const prompt = this.prompt();
    // Serialized once, by the check: the claim compares it with the stored checkpoint, the run key hashes it.
    const { checkpoint, canonical, answers: given, turnCalls } = await this.check(input);
    const answers = restoreSecretOptions(checkpoint, given);
    const store = this.agent.runtime.bus.checkpoints;
    const verified = this.agent.runtime.keys !== undefined;
    const stored = await claimCheckpoint(store, checkpoint, control.claimant ?? randomUUID(), canonical, verified);
    const run = runKeyOf(canonical);
    const recovered =
      control.recoverFromLog || stored?.interrupted
        ? await recoverResults(this.agent.runtime.bus, checkpoint.generation_id, run)
        : undefined;
    try {
      return await runGeneration({
        agent: this.agent,
        prompt,
        params: this.params,
        start: {
          kind: 'resume',
          checkpoint,
          context: contextFromCheckpoint(checkpoint, turnCalls, prompt, this.agent.provider),
          answers,
          run,
        },
        ...this.runExtras(control, stream),
        ...(recovered && { recovered }),
      });
    } catch (error) {
      // The run failed before its next stop: put the checkpoint back so it can be resumed again.
      if (stored !== undefined)
        await store.save(checkpoint.generation_id, { checkpoint, params: stored.params, interrupted: true });
      throw error;
    }
  }

  private async check(input: ResumeInput) {
    if (typeof input !== 'object' || input === null)
      throw new ResumeError('invalid_checkpoint', 'resume needs { checkpoint, answers }');
    const { runtime } = this.agent;
    return checkResume(input.checkpoint, input.answers, {
      agent: this.agent.name,
      actionName: this.actionName,
      adapter: this.agent.provider,
      keys: runtime.keys,
      params: this.params,
      audience: await runtime.audience(),
    });
  }

  private prompt(): ResolvedPrompt {
    const action = this.agent.actions[this.actionName];
    if (action === undefined) throw new TypeError(`Agent ${this.agent.name} has no action ${this.actionName}`);
    return resolvePrompt(this.actionName, action, this.params, this.agent.instructions);
  }

  /** Queues a job, signed, with the caller's trace context in the job and in the transport's headers. */
  private async enqueue(queue: string | undefined, job: Job): Promise<void> {
    const { runtime } = this.agent;
    const traceparent = runtime.telemetry?.currentTraceparent?.();
    const traced = signJob(traceparent === undefined ? job : { ...job, traceparent }, runtime.keys);
    await runtime.bus.jobs.enqueue(queue ?? DEFAULT_QUEUE, traced, traceparent === undefined ? {} : { traceparent });
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

  private runExtras(control: RunControl, stream: StreamSink | undefined) {
    return {
      ...(stream && { stream }),
      ...(control.signal && { signal: control.signal }),
      ...(control.parentTraceparent && { parentTraceparent: control.parentTraceparent }),
      ...(control.nested && { nested: true }),
    };
  }
}
