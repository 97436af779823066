import { ResumeError } from '@interlude/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { itClearsForcedToolChoice } from '../testing/it-clears-forced-tool-choice.js';
import { openaiFixtures } from '../testing/openai-fixtures.js';
import { createForcedRefundAgent } from '../testing/openai-forced-refund-agent.js';
import { runToStop, throughJson } from '../testing/run-to-stop.js';
import { createWireServer, type WireServer } from '../testing/wire-server.js';
import { openaiChat } from './openai-chat-adapter.js';

const fixtures = openaiFixtures(new URL('./__fixtures__/', import.meta.url), 'chat');
const path = '/v1/chat/completions';

let server: WireServer;
beforeEach(async () => {
  server = await createWireServer();
});
afterEach(() => server.close());

const chat = (model = 'gpt-4.1') => openaiChat({ model, baseURL: `${server.url}/v1`, apiKey: 'test', maxRetries: 0 });
const bodies = () => server.requests.map((request) => request.body as Record<string, unknown>);

describe.each([false, true])('openaiChat tool choice and resume checks (stream: %s)', (stream) => {
  itClearsForcedToolChoice({
    title: 'sends a forced tool as {type: function, function: {name}} and clears it after use, across the pause',
    stream,
    server: () => server,
    path,
    fixtures,
    build: () => chat(),
    sentToolChoice: { type: 'function', function: { name: 'issue_refund' } },
  });

  it('sends required as is', async () => {
    const { agent } = createForcedRefundAgent(chat(), 'required');
    server.enqueue(path, fixtures.reply('refund-tool-calls', stream));
    await runToStop(agent.handle({ ticketId: 42 }), { stream });
    expect(bodies()[0]?.['tool_choice']).toBe('required');
  });

  it('refuses a checkpoint taken with another model, before any request', async () => {
    server.enqueue(path, fixtures.reply('refund-tool-calls', stream));
    const paused = await runToStop(createForcedRefundAgent(chat(), 'auto').agent.handle({ ticketId: 42 }), { stream });
    const other = createForcedRefundAgent(chat('gpt-4.1-mini'), 'auto').agent;
    const error = await other
      .handle({ ticketId: 42 })
      .resumeNow({ checkpoint: throughJson(paused.response.checkpoint!), answers: { call_refund_1: true } })
      .catch((caught: unknown) => caught);
    expect(ResumeError.isInstance(error) && error.code).toBe('model_mismatch');
    expect(server.requests).toHaveLength(1);
  });
});
