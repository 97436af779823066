import type { Usage } from '../provider/provider-adapter.js';
import type { Scrubber } from '../secrets/scrub.js';
import type { GenerationTrace } from '../telemetry/telemetry.js';
import type { EventPublisher } from './event-publisher.js';
import type { RunOptions } from './run-generation.js';

/** What one run's actors share: its options, secrets, trace, publisher, signal and tallies. */
export interface RunScope {
  options: RunOptions;
  generationId: string;
  scrubber: Scrubber;
  trace: GenerationTrace | undefined;
  traceparent: string | undefined;
  publisher: EventPublisher;
  signal: AbortSignal;
  usage: Required<Pick<Usage, 'inputTokens' | 'outputTokens'>>;
  /** The (scrubbed) failure that stopped the run, kept to be thrown at the boundary. */
  failure: Error | undefined;
}
