import { type Checkpoint, type GenerationStream, ProviderError } from '@interlude/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openaiFixtures } from '../testing/openai-fixtures.js';
import { createSupportDesk } from '../testing/support-desk.js';
import { createWireServer, type WireServer } from '../testing/wire-server.js';
import { openaiResponses } from './openai-responses-adapter.js';

const fixtures = openaiFixtures(new URL('./__fixtures__/', import.meta.url), 'responses');
const path = '/v1/responses';
// The SDK honours `retry-after-ms`: retried tests wait a millisecond, not its default backoff.
const retryNow = { 'retry-after-ms': '1' };
const rateLimited = { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } };
const serverError = { error: { message: 'The server had an error processing your request.', type: 'server_error' } };

let server: WireServer;
beforeEach(async () => {
  server = await createWireServer();
});
afterEach(() => server.close());

const desk = (maxRetries: number) =>
  createSupportDesk(openaiResponses({ model: 'gpt-5', baseURL: `${server.url}/v1`, apiKey: 'test', maxRetries }));

async function rejection(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!ProviderError.isInstance(error)) throw new Error(`expected a ProviderError, got ${String(error)}`);
  return error;
}

describe.each([false, true])('openaiResponses failures in a generation (stream: %s)', (stream) => {
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
    const error = await rejection(stream ? drain(generation.stream()) : generation.generateNow());
    expect(server.requests).toHaveLength(2);
    expect(error).toMatchObject({ status: 500, type: 'server_error', isRetryable: true, provider: 'openai.responses' });
  });
});

describe('openaiResponses truncated stream in a generation', () => {
  it('fails the resumed generation clearly; the checkpoint still resumes and nothing runs twice', async () => {
    const { agent, runtime, runs } = desk(0);
    const finalChunks = fixtures.chunks('refund-final-text');
    server.enqueue(
      path,
      fixtures.reply('refund-tool-calls', false),
      // Half the answer, then the connection closes: no response.completed event.
      {
        raw: finalChunks
          .slice(0, 8)
          .map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`)
          .join(''),
        contentType: 'text/event-stream',
      },
      fixtures.reply('refund-final-text', true),
    );
    const paused = await agent.handle({ ticketId: 42 }).generateNow();
    const checkpoint = JSON.parse(JSON.stringify(paused.checkpoint)) as Checkpoint;
    const input = { checkpoint, answers: { call_refund_1: true } };

    const live = agent.handle({ ticketId: 42 }).resumeStream(input);
    const error = await rejection(drain(live));
    expect(error).toMatchObject({ type: 'stream_truncated', isRetryable: true, provider: 'openai.responses' });
    expect(error.message).toMatch(/OpenAI Responses stream ended before the response was complete/);
    const events = await runtime.bus.events(checkpoint.generation_id);
    expect(events.at(-1)?.event).toBe('failed');

    const done = await drain(agent.handle({ ticketId: 42 }).resumeStream(input));
    expect(done.text).toBe('I refunded $25 on order 42.');
    expect(runs).toMatchObject({ lookup_order: 1, issue_refund: 1 });
    expect(server.requests).toHaveLength(3);
  });
});

/** Reads a stream to its end and returns its response; a failure surfaces from either. */
async function drain(live: GenerationStream) {
  for await (const _part of live) {
    // parts are checked elsewhere
  }
  return live.response;
}
