import type { Checkpoint } from '@interlude/core';
import type { ProviderAdapter } from '@interlude/core/provider';
import { expect, it } from 'vitest';
import type { OpenAIFixtures } from './openai-fixtures.js';
import { createForcedRefundAgent } from './openai-forced-refund-agent.js';
import { runToStop, throughJson } from './run-to-stop.js';
import type { WireServer } from './wire-server.js';

export interface ForcedToolChoiceCheck {
  /** The test's title, naming how this API spells a forced tool. */
  title: string;
  stream: boolean;
  /** The running test's wire server (a getter: each test gets a fresh one). */
  server(): WireServer;
  /** The endpoint the SDK posts to (`/v1/responses`). */
  path: string;
  /** Must hold `refund-tool-calls` and `refund-final-text`. */
  fixtures: OpenAIFixtures;
  build(): ProviderAdapter;
  /** `tool_choice` as the first request must send `{ type: 'tool', name: 'issue_refund' }`. */
  sentToolChoice: unknown;
}

/**
 * Adds, inside the caller's `describe`, the test both OpenAI adapters share: a forced
 * `issue_refund` goes out in the API's own spelling, the checkpoint records that it was used,
 * and the resumed request, in another `Generation`, no longer forces it.
 */
export function itClearsForcedToolChoice(check: ForcedToolChoiceCheck): void {
  const { stream, path, fixtures } = check;
  it(check.title, async () => {
    const server = check.server();
    const { agent, runs } = createForcedRefundAgent(check.build(), { type: 'tool', name: 'issue_refund' });
    server.enqueue(path, fixtures.reply('refund-tool-calls', stream), fixtures.reply('refund-final-text', stream));
    const paused = await runToStop(agent.handle({ ticketId: 42 }), { stream });
    expect(paused.response.checkpoint?.tool_choice_cleared).toBe(true);

    await runToStop(agent.handle({ ticketId: 42 }), {
      stream,
      resume: {
        checkpoint: throughJson(paused.response.checkpoint as Checkpoint),
        answers: { call_refund_1: true },
      },
    });
    expect(runs).toEqual({ lookup_order: 1, issue_refund: 1 });
    const [first, resumed] = server.requests.map((request) => request.body as Record<string, unknown>);
    expect(first?.['tool_choice']).toEqual(check.sentToolChoice);
    expect(resumed).not.toHaveProperty('tool_choice');
  });
}
