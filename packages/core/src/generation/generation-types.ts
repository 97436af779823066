import type { GenerationResponse } from './generation-response.js';
import type { GenerationStream } from './generation-stream.js';

// The generation's public shape, apart from the class that runs it: an agent's type names it, and
// everything that runs a generation needs the agent's type, so the shape sits below both.

export interface ResumeInput {
  /** The checkpoint from a paused response, as plain JSON (it may have been through a database). */
  checkpoint: unknown;
  /** Answers by tool call id. */
  answers: Record<string, unknown>;
}

/** How one run is started: its abort signal, a fixed id, the caller's trace. */
export interface RunControl {
  signal?: AbortSignal;
  /** Use this id for a fresh generation (a job carries one). */
  generationId?: string;
  /** The caller's W3C trace context, so the generation's spans join the caller's trace. */
  parentTraceparent?: string;
  /** The conversation of the generation that enqueued this one (a job's), which its spans join. */
  parentConversationId?: string;
}

/**
 * One action of one agent with its params: start it, stream it, resume it, or hand it to a worker.
 * An agent's action methods return one (`agent.refund({ ticketId })`).
 */
export interface Generation {
  readonly actionName: string;
  readonly params: unknown;
  /** Runs until the generation finishes or pauses. Throws the (scrubbed) failure. */
  generateNow(control?: RunControl): Promise<GenerationResponse>;
  /** Like `generateNow()`, yielding parts as they happen; `await stream.response` after the loop. */
  stream(control?: RunControl): GenerationStream;
  /** Checks everything, then resumes a paused generation with the person's answers. */
  resumeNow(input: ResumeInput, control?: RunControl): Promise<GenerationResponse>;
  /** `resumeNow()` as a stream of parts. */
  resumeStream(input: ResumeInput, control?: RunControl): GenerationStream;
  /** Checks the action, then queues the generation for a worker. */
  generateLater(options?: { queue?: string; generationId?: string }): Promise<{ generationId: string; jobId: string }>;
  /**
   * Checks the checkpoint and answers as `resumeNow()` would, then queues the resume for a worker.
   * Secret answers are refused: a job is stored. `jobId` names the job (default: a random id); a
   * job of that id the queue still knows (see `Enqueued`) is not queued again, and the call throws
   * `ResumeError` coded `already_resumed`: one id per pause makes an answer count once while queued.
   */
  resumeLater(
    input: ResumeInput & { queue?: string; jobId?: string },
  ): Promise<{ generationId: string; jobId: string }>;
}
