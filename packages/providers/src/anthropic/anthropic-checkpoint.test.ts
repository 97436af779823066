import type { Checkpoint } from '@interlude/core';
import { scriptedProvider } from '@interlude/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropicOnWire } from '../testing/anthropic-on-wire.js';
import { anthropicReply } from '../testing/anthropic-replies.js';
import { loadFixtures } from '../testing/fixtures.js';
import { rejectedResumeError } from '../testing/rejected-error.js';
import { runToStop, throughJson } from '../testing/run-to-stop.js';
import { createSupportDesk } from '../testing/support-desk.js';
import { createWireServer, type WireServer } from '../testing/wire-server.js';

const fixtures = loadFixtures(new URL('./__fixtures__/', import.meta.url));

let server: WireServer;
beforeEach(async () => {
  server = await createWireServer();
});
afterEach(() => server.close());

const adapter = (model = 'claude-sonnet-5-5') => createAnthropicOnWire(server.url, { model });

async function pausedCheckpoint(stream: boolean): Promise<Checkpoint> {
  server.enqueue('/v1/messages', anthropicReply(fixtures.json('refund-tool-use'), { stream }));
  const { response } = await runToStop(createSupportDesk(adapter()).agent.handle({ ticketId: 42 }), { stream });
  return throughJson(response.checkpoint as Checkpoint);
}

describe.each([false, true])('anthropic checkpoints (stream: %s)', (stream) => {
  it('are refused by another model and by another adapter, before any request', async () => {
    const checkpoint = await pausedCheckpoint(stream);
    const answers = { toolu_02Refund: true };
    const otherModel = createSupportDesk(adapter('claude-opus-5-5')).agent.handle({ ticketId: 42 });
    expect((await rejectedResumeError(otherModel.resumeNow({ checkpoint, answers }))).code).toBe('model_mismatch');
    const otherAdapter = createSupportDesk(scriptedProvider([], { model: 'claude-sonnet-5-5' })).agent.handle({
      ticketId: 42,
    });
    expect((await rejectedResumeError(otherAdapter.resumeNow({ checkpoint, answers }))).code).toBe('provider_mismatch');
    expect(server.requests).toHaveLength(1);
  });

  it('clear a forced tool choice once used, and keep it cleared after the pause', async () => {
    const desk = createSupportDesk(adapter(), { toolChoice: { type: 'tool', name: 'issue_refund' } });
    server.enqueue(
      '/v1/messages',
      anthropicReply(fixtures.json('refund-tool-use'), { stream }),
      anthropicReply(fixtures.json('refund-done'), { stream }),
    );
    const paused = await runToStop(desk.agent.handle({ ticketId: 42 }), { stream });
    const checkpoint = throughJson(paused.response.checkpoint as Checkpoint);
    expect(checkpoint.tool_choice_cleared).toBe(true);
    const resume = { checkpoint, answers: { toolu_02Refund: true } };
    await runToStop(desk.agent.handle({ ticketId: 42 }), { stream, resume });
    expect(server.requests[0]?.body).toMatchObject({ tool_choice: { type: 'tool', name: 'issue_refund' } });
    expect(server.requests[1]?.body).not.toHaveProperty('tool_choice');
  });
});
