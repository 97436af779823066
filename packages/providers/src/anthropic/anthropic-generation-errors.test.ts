import type { Checkpoint } from '@interlude/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropicOnWire } from '../testing/anthropic-on-wire.js';
import { anthropicStreamEvents } from '../testing/anthropic-replies.js';
import { loadFixtures } from '../testing/fixtures.js';
import { rejectedProviderError } from '../testing/rejected-error.js';
import { createSupportDesk } from '../testing/support-desk.js';
import { createWireServer, type WireServer } from '../testing/wire-server.js';

const fixtures = loadFixtures(new URL('./__fixtures__/', import.meta.url));
// The SDK honours `retry-after-ms`: retried tests wait a millisecond, not its default backoff.
const retryNow = { 'retry-after-ms': '1' };

let server: WireServer;
beforeEach(async () => {
  server = await createWireServer();
});
afterEach(() => server.close());

const desk = (maxRetries: number) => createSupportDesk(createAnthropicOnWire(server.url, { maxRetries }));

describe('anthropic failures in a generation', () => {
  it('retries a 429 and then completes', async () => {
    server.enqueue(
      '/v1/messages',
      { json: fixtures.json('error-rate-limit'), status: 429, headers: retryNow },
      { json: fixtures.json('refund-done') },
    );
    const response = await desk(1).agent.handle({ ticketId: 42 }).generateNow();
    expect(response.text).toBe('Refunded $25 on order 42.');
    expect(server.requests).toHaveLength(2);
  });

  it('fails with a ProviderError once a 500 outlasts the retries', async () => {
    const failure = { json: fixtures.json('error-api'), status: 500, headers: retryNow };
    server.enqueue('/v1/messages', failure, failure);
    const { agent, runtime } = desk(1);
    const generationId = 'gen_00000000000000000000000000000500';
    const error = await rejectedProviderError(agent.handle({ ticketId: 42 }).generateNow({ generationId }));
    expect(server.requests).toHaveLength(2);
    expect(error).toMatchObject({ status: 500, type: 'api_error', isRetryable: true, provider: 'anthropic.messages' });
    const events = await runtime.bus.events(generationId);
    expect(events.map((event) => event.event)).toEqual(['started', 'failed']);
  });

  it('a truncated stream fails the resumed generation clearly; the checkpoint still resumes, nothing runs twice', async () => {
    const { agent, runtime, runs } = desk(0);
    const doneEvents = anthropicStreamEvents(fixtures.json('refund-done'));
    server.enqueue(
      '/v1/messages',
      { json: fixtures.json('refund-tool-use') },
      { sse: doneEvents, namedEvents: true, cutAfter: 3 },
      { json: fixtures.json('refund-done') },
    );
    const paused = await agent.handle({ ticketId: 42 }).generateNow();
    const checkpoint = JSON.parse(JSON.stringify(paused.checkpoint)) as Checkpoint;
    const input = { checkpoint, answers: { toolu_02Refund: true } };

    const live = agent.handle({ ticketId: 42 }).resumeStream(input);
    const error = await rejectedProviderError(
      (async () => {
        for await (const _part of live) {
          // read until the failure surfaces
        }
      })(),
    );
    expect(error.type).toBe('stream_truncated');
    expect(error.message).toMatch(/stream ended before the message was complete/);
    await expect(live.response).rejects.toBe(error);
    const events = await runtime.bus.events(checkpoint.generation_id);
    expect(events.at(-1)?.event).toBe('failed');

    const done = await agent.handle({ ticketId: 42 }).resumeNow(input);
    expect(done.text).toBe('Refunded $25 on order 42.');
    expect(runs).toMatchObject({ lookup_order: 1, issue_refund: 1 });
    expect(server.requests).toHaveLength(3);
  });
});
