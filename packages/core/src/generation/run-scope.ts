import type { EventData } from '../bus/events.js';
import type { Checkpoint } from '../checkpoint/checkpoint.js';
import type { CheckpointSeal } from '../checkpoint/checkpoint-from-context.js';
import type { RunLease } from '../claims/run-lease.js';
import type { ToolSpec, Usage } from '../provider/provider-adapter.js';
import type { Scrubber } from '../secrets/scrub.js';
import type { GenerationTrace } from '../telemetry/telemetry.js';
import type { EventPublisher } from './event-publisher.js';
import type { RunOptions } from './run-options.js';

/** What one run's actors share: its options, lease, secrets, trace, publisher, signal and tallies. */
export interface RunScope {
  options: RunOptions;
  generationId: string;
  /** The run's hold on its generation: the claim-log steps a job writes go through it. */
  lease: RunLease;
  /**
   * The model's answers an earlier holder of this run logged, next first: taken instead of calling
   * the model, until a tool body runs live (from then on the conversation may differ).
   */
  replay: EventData['model_responded'][];
  scrubber: Scrubber;
  trace: GenerationTrace | undefined;
  traceparent: string | undefined;
  publisher: EventPublisher;
  /** The caller's signal (or the stream's), when there is one. */
  signal: AbortSignal | undefined;
  /** The signal a tool reads as `ctx.signal`: the caller's, or one made on first read that never aborts. */
  readonly toolSignal: AbortSignal;
  usage: Required<Pick<Usage, 'inputTokens' | 'outputTokens'>>;
  /** The run's tools as the provider sees them, built once rather than per model call. */
  toolSpecs: ToolSpec[];
  /** What the run's checkpoints are signed with and for. */
  seal: CheckpointSeal;
  /** The checkpoint of the pause this run announced, stored once and returned as is. */
  pausedCheckpoint: Checkpoint | undefined;
  /** The (scrubbed) failure that stopped the run, kept to be thrown at the boundary. */
  failure: Error | undefined;
}
