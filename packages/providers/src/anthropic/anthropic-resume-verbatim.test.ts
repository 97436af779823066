import type { Checkpoint } from '@interlude/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropicOnWire } from '../testing/anthropic-on-wire.js';
import { anthropicReply } from '../testing/anthropic-replies.js';
import { loadFixtures } from '../testing/fixtures.js';
import { runToStop, throughJson } from '../testing/run-to-stop.js';
import { createSupportDesk } from '../testing/support-desk.js';
import { createWireServer, type WireServer } from '../testing/wire-server.js';

const fixtures = loadFixtures(new URL('./__fixtures__/', import.meta.url));
type Message = { role: string; content: Record<string, unknown>[] };

let server: WireServer;
beforeEach(async () => {
  server = await createWireServer();
});
afterEach(() => server.close());

describe.each([false, true])('what a pause keeps verbatim (stream: %s)', (stream) => {
  const desk = () =>
    createSupportDesk(createAnthropicOnWire(server.url, { thinking: { type: 'enabled', budget_tokens: 2048 } }));
  const reply = (name: string) => anthropicReply(fixtures.json(name), { stream });
  const pauseAndResume = async (answers: Record<string, unknown>) => {
    const { agent } = desk();
    const paused = await runToStop(agent.handle({ ticketId: 42 }), { stream });
    const checkpoint = throughJson(paused.response.checkpoint as Checkpoint);
    const done = await runToStop(agent.handle({ ticketId: 42 }), { stream, resume: { checkpoint, answers } });
    return { checkpoint, done: done.response };
  };

  it('keeps thinking and redacted thinking blocks, signatures included, and sends them back unchanged', async () => {
    server.enqueue('/v1/messages', reply('thinking-refund-tool-use'), reply('refund-done'));
    const turn = fixtures.json<Message>('thinking-refund-tool-use');
    const { checkpoint, done } = await pauseAndResume({ toolu_05Refund: true });

    expect(checkpoint.messages[1]).toEqual({ role: 'assistant', content: turn.content });
    const resumed = server.requests[1]?.body as { messages: Message[]; thinking: unknown };
    expect(resumed.messages[1]).toEqual({ role: 'assistant', content: turn.content });
    expect(resumed.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(done.text).toBe('Refunded $25 on order 42.');
  });

  it('passes the code-execution container id back after the pause', async () => {
    server.enqueue('/v1/messages', reply('code-execution-refund-tool-use'), reply('refund-done'));
    const turn = fixtures.json<Message>('code-execution-refund-tool-use');
    const { checkpoint } = await pauseAndResume({ toolu_06Refund: true });

    expect(checkpoint.messages[1]).toEqual({
      role: 'assistant',
      content: turn.content,
      container: { id: 'container_011Refunds', expires_at: '2099-01-01T00:00:00Z' },
    });
    expect(server.requests[0]?.body).not.toHaveProperty('container');
    const resumed = server.requests[1]?.body as { container: string; messages: Message[] };
    expect(resumed.container).toBe('container_011Refunds');
    expect(resumed.messages[1]).toEqual({ role: 'assistant', content: turn.content });
  });
});
