import { ResumeError } from '@interlude/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openaiChat } from '../openai-chat/openai-chat-adapter.js';
import { itClearsForcedToolChoice } from '../testing/it-clears-forced-tool-choice.js';
import { openaiFixtures } from '../testing/openai-fixtures.js';
import { createForcedRefundAgent } from '../testing/openai-forced-refund-agent.js';
import { runToStop, throughJson } from '../testing/run-to-stop.js';
import { createWireServer, type WireServer } from '../testing/wire-server.js';
import { openaiResponses } from './openai-responses-adapter.js';

const fixtures = openaiFixtures(new URL('./__fixtures__/', import.meta.url), 'responses');
const chatFixtures = openaiFixtures(new URL('../openai-chat/__fixtures__/', import.meta.url), 'chat');
const path = '/v1/responses';

let server: WireServer;
beforeEach(async () => {
  server = await createWireServer();
});
afterEach(() => server.close());

const responses = (model = 'gpt-5') =>
  openaiResponses({ model, baseURL: `${server.url}/v1`, apiKey: 'test', maxRetries: 0 });

describe.each([false, true])('openaiResponses tool choice and resume checks (stream: %s)', (stream) => {
  itClearsForcedToolChoice({
    title: 'sends a forced tool as {type: function, name} and clears it after use, across the pause',
    stream,
    server: () => server,
    path,
    fixtures,
    build: () => responses(),
    sentToolChoice: { type: 'function', name: 'issue_refund' },
  });

  it('refuses a Chat Completions checkpoint, and a Responses one is refused by Chat, before any request', async () => {
    server.enqueue('/v1/chat/completions', chatFixtures.reply('refund-tool-calls', stream));
    server.enqueue(path, fixtures.reply('refund-tool-calls', stream));
    const chat = openaiChat({ model: 'gpt-5', baseURL: `${server.url}/v1`, apiKey: 'test', maxRetries: 0 });
    const fromChat = await runToStop(createForcedRefundAgent(chat, 'auto').agent.handle({ ticketId: 42 }), { stream });
    const fromResponses = await runToStop(createForcedRefundAgent(responses(), 'auto').agent.handle({ ticketId: 42 }), {
      stream,
    });

    const resume = (agent: ReturnType<typeof createForcedRefundAgent>['agent'], checkpoint: unknown) =>
      agent
        .handle({ ticketId: 42 })
        .resumeNow({ checkpoint: throughJson(checkpoint), answers: { call_refund_1: true } })
        .catch((caught: unknown) => caught);
    const refusedByResponses = await resume(
      createForcedRefundAgent(responses(), 'auto').agent,
      fromChat.response.checkpoint,
    );
    const refusedByChat = await resume(createForcedRefundAgent(chat, 'auto').agent, fromResponses.response.checkpoint);
    expect(ResumeError.isInstance(refusedByResponses) && refusedByResponses.code).toBe('provider_mismatch');
    expect(ResumeError.isInstance(refusedByChat) && refusedByChat.code).toBe('provider_mismatch');
    expect(server.requests).toHaveLength(2);
  });
});
