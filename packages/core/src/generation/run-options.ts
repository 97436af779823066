import type { ResolvedPrompt } from '../agent/action.js';
import type { AgentBase } from '../agent/agent-types.js';
import type { Checkpoint } from '../checkpoint/checkpoint.js';
import type { RunRecovery } from '../claims/recover-run.js';
import type { RunLease } from '../claims/run-lease.js';
import type { GenerationContext } from './generation-context.js';
import type { StreamSink } from './generation-stream.js';

/** Where a run starts: a fresh generation, or a checked resume of a paused one. */
export type RunStart =
  | { kind: 'fresh'; generationId: string }
  | {
      kind: 'resume';
      checkpoint: Checkpoint;
      context: GenerationContext;
      answers: ReadonlyMap<string, unknown>;
      run: string;
      /** Resumed by its deadline: `input_expired` is announced before `resumed`. */
      expiring?: true;
    };

export interface RunOptions {
  agent: AgentBase;
  prompt: ResolvedPrompt;
  params: unknown;
  start: RunStart;
  stream?: StreamSink;
  signal?: AbortSignal;
  /** The caller's trace context (a job's headers). */
  parentTraceparent?: string;
  /** The enqueuing generation's conversation (a job's). */
  parentConversationId?: string;
  /**
   * Run as a delegated (nested) generation: it cannot pause, so a pause is neither stored,
   * published nor passed to `onInputRequest`; the caller turns its questions into a tool result.
   */
  nested?: boolean;
  /** The run's hold on its generation (its claim, or a fresh run's place in the claim log). */
  lease: RunLease;
  /** What earlier holders of this run did (a takeover, a claim after a release): reused, never repeated. */
  recovery?: RunRecovery;
}
