import type { Checkpoint, GenerationStream } from '@interlude/core';
import type { ProviderAdapter } from '@interlude/core/provider';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanlyEndedStream } from './cleanly-ended-stream.js';
import type { OpenAIFixtures } from './openai-fixtures.js';
import { rejectedProviderError } from './rejected-error.js';
import { createSupportDesk } from './support-desk.js';
import { createWireServer, type WireServer } from './wire-server.js';

export interface GenerationFailureSuite {
  /** The factory's name, for test titles (`openaiChat`). */
  name: string;
  /** The adapter's `provider` and how its errors name it. */
  provider: string;
  label: string;
  /** The endpoint the SDK posts to (`/v1/chat/completions`). */
  path: string;
  fixtures: OpenAIFixtures;
  /** How many stream events arrive before the connection closes: some, never the last. */
  truncateAfter: number;
  createAdapter(baseURL: string, maxRetries: number): ProviderAdapter;
}

// The SDK honours `retry-after-ms`: retried tests wait a millisecond, not its default backoff.
const retryNow = { 'retry-after-ms': '1' };
const rateLimited = { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } };
const serverError = { error: { message: 'The server had an error processing your request.', type: 'server_error' } };

/**
 * The failures both OpenAI adapters must handle inside a real generation, written once: a 429 is
 * retried and the generation completes; a 500 that outlasts the retries is a `ProviderError`; a
 * stream cut half way fails the resumed generation clearly (`failed` is the last event) and the
 * same checkpoint still resumes, with no tool run twice. Uses the fixtures `refund-tool-calls`
 * and `refund-final-text`.
 */
export function describeGenerationFailures(suite: GenerationFailureSuite): void {
  const { fixtures, path } = suite;
  let server: WireServer;
  beforeEach(async () => {
    server = await createWireServer();
  });
  afterEach(() => server.close());
  const desk = (maxRetries: number) => createSupportDesk(suite.createAdapter(`${server.url}/v1`, maxRetries));

  describe.each([false, true])(`${suite.name} failures in a generation (stream: %s)`, (stream) => {
    it('retries a 429 and then completes', async () => {
      server.enqueue(
        path,
        { json: rateLimited, status: 429, headers: retryNow },
        fixtures.reply('refund-final-text', stream),
      );
      const generation = desk(1).agent.handle({ ticketId: 42 });
      const response = stream ? await drain(generation.stream()) : await generation.generateNow();
      expect(response.text).toBe('I refunded $25 on order 42.');
      expect(server.requests).toHaveLength(2);
    });

    it('fails with a ProviderError once a 500 outlasts the retries', async () => {
      const failure = { json: serverError, status: 500, headers: retryNow };
      server.enqueue(path, failure, failure);
      const generation = desk(1).agent.handle({ ticketId: 42 });
      const error = await rejectedProviderError(stream ? drain(generation.stream()) : generation.generateNow());
      expect(server.requests).toHaveLength(2);
      expect(error).toMatchObject({ status: 500, type: 'server_error', isRetryable: true, provider: suite.provider });
    });
  });

  it(`${suite.name}: a truncated stream fails the resumed generation clearly; the checkpoint still resumes, nothing runs twice`, async () => {
    const { agent, runtime, runs } = desk(0);
    const events = fixtures.chunks('refund-final-text').slice(0, suite.truncateAfter);
    server.enqueue(
      path,
      fixtures.reply('refund-tool-calls', false),
      // Part of the answer, then the connection closes before the API's end-of-answer event.
      cleanlyEndedStream(events),
      fixtures.reply('refund-final-text', true),
    );
    const paused = await agent.handle({ ticketId: 42 }).generateNow();
    const checkpoint = JSON.parse(JSON.stringify(paused.checkpoint)) as Checkpoint;
    const input = { checkpoint, answers: { call_refund_1: true } };

    const error = await rejectedProviderError(drain(agent.handle({ ticketId: 42 }).resumeStream(input)));
    expect(error).toMatchObject({ type: 'stream_truncated', isRetryable: true, provider: suite.provider });
    expect(error.message).toContain(`${suite.label} stream ended before the response was complete`);
    const logged = await runtime.bus.events(checkpoint.generation_id);
    expect(logged.at(-1)?.event).toBe('failed');

    const done = await drain(agent.handle({ ticketId: 42 }).resumeStream(input));
    expect(done.text).toBe('I refunded $25 on order 42.');
    expect(runs).toMatchObject({ lookup_order: 1, issue_refund: 1 });
    expect(server.requests).toHaveLength(3);
  });
}

/** Reads a stream to its end and returns its response; a failure surfaces from either. */
async function drain(live: GenerationStream) {
  for await (const _part of live) {
    // parts are checked by the scenario suites
  }
  return live.response;
}
