import type { GenerationTraceInfo } from '@interlude/core/internal';

/** What core reports when the refund scenario's first run starts: the unit tests' common root. */
export const refundRunInfo: GenerationTraceInfo = {
  agent: 'support',
  action: 'handle',
  generationId: 'gen_1',
  provider: 'anthropic.messages',
  model: 'claude-sonnet-4-5',
  resumed: false,
};
