import { createRuntime, defineAgent, tool } from '@interlude/core';
import { createMemoryBus } from '@interlude/core/internal';
import type { ProviderAdapter, ToolChoice } from '@interlude/core/provider';
import { createRefundScenario } from '@interlude/core/testing';
import { z } from 'zod';

export const SUPPORT_INSTRUCTIONS = 'You resolve support tickets.';

/**
 * The support desk every adapter suite drives through real generations: core's refund scenario
 * (`lookup_order` runs, `issue_refund` asks to confirm) plus `close_account`, which sits behind an
 * approval gate. Each desk has its own in-memory runtime, so its event log can be read back, and
 * counters of how often each tool really ran.
 *
 * @example
 * ```ts
 * const desk = createSupportDesk(anthropic({ model, baseURL: server.url, apiKey: 'test', maxRetries: 0 }));
 * const paused = await desk.agent.handle({ ticketId: 42 }).generateNow();
 * ```
 */
export function createSupportDesk(provider: ProviderAdapter, options: { toolChoice?: ToolChoice } = {}) {
  const scenario = createRefundScenario();
  const runs = {
    get lookup_order() {
      return scenario.runs.lookup_order;
    },
    get issue_refund() {
      return scenario.runs.issue_refund;
    },
    close_account: 0,
  };
  const closeAccount = tool({
    name: 'close_account',
    description: 'Close a customer account',
    input: z.object({ customer_id: z.number() }),
    async run({ customer_id }) {
      runs.close_account += 1;
      return { closed: customer_id };
    },
  });
  const runtime = createRuntime({ bus: createMemoryBus() });
  const agent = defineAgent({
    name: 'support',
    runtime,
    provider,
    instructions: SUPPORT_INSTRUCTIONS,
    actions: {
      handle: ({ ticketId }: { ticketId: number }) => ({
        message: `Resolve support ticket ${ticketId}`,
        tools: [scenario.lookupOrder, scenario.issueRefund, closeAccount],
        requiresApproval: ['close_account'],
        ...(options.toolChoice !== undefined ? { toolChoice: options.toolChoice } : {}),
      }),
    },
  });
  /** `runs`: how often each tool body really ran (the refund counts only once confirmed). */
  return { agent, runtime, runs };
}
