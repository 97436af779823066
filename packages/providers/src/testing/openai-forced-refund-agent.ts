import { createRuntime, defineAgent } from '@interlude/core';
import { createMemoryBus } from '@interlude/core/internal';
import type { ProviderAdapter, ToolChoice } from '@interlude/core/provider';
import { createRefundScenario } from '@interlude/core/testing';
import { SUPPORT_INSTRUCTIONS } from './support-desk.js';

/**
 * Core's refund scenario behind an action that forces a tool choice, so the OpenAI suites can
 * check how each API receives it and that it is gone once the model has used the tool, also
 * after a pause and a resume in another `Generation`.
 */
export function createForcedRefundAgent(provider: ProviderAdapter, toolChoice: ToolChoice) {
  const scenario = createRefundScenario();
  const agent = defineAgent({
    name: 'support',
    runtime: createRuntime({ bus: createMemoryBus() }),
    provider,
    instructions: SUPPORT_INSTRUCTIONS,
    actions: {
      handle: ({ ticketId }: { ticketId: number }) => ({ ...scenario.action({ ticketId }), toolChoice }),
    },
  });
  return { agent, runs: scenario.runs };
}
