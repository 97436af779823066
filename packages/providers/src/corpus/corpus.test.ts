import type { Checkpoint, StreamPart } from '@interlude/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rejectedProviderError } from '../testing/rejected-error.js';
import { runToStop, throughJson } from '../testing/run-to-stop.js';
import { createSupportDesk, SUPPORT_INSTRUCTIONS } from '../testing/support-desk.js';
import { createWireServer, type WireServer } from '../testing/wire-server.js';
import { type Exchange, loadCorpus, loadFrame } from './corpus-exchanges.js';
import { CORPUS_PATHS, createCorpusAdapter, rawReply, readExchangeBody } from './corpus-wire.js';
import { expectErrorRead, expectResponseRead, expectToolCallsRead } from './expect-read-turn.js';
import { expectSameConversation } from './same-conversation.js';

const corpus = loadCorpus();
const deskTools = ['lookup_order', 'issue_refund', 'close_account'];
/** The servers whose real traffic the corpus reproduces (the providers README lists the same). */
const COVERED_SERVERS = [
  'Anthropic',
  'OpenAI',
  'DeepSeek',
  'Gemini',
  'Groq',
  'Qwen',
  'xAI',
  'OpenRouter',
  'Ollama',
  'Azure OpenAI',
  'LM Studio',
];

let server: WireServer;
beforeEach(async () => {
  server = await createWireServer();
});
afterEach(() => server.close());

const bodies = () => server.requests.map((request) => request.body as Record<string, unknown>);
const textOf = (parts: StreamPart[]) =>
  parts.flatMap((part) => (part.type === 'text-delta' ? [part.text] : [])).join('');

describe.each(corpus.map((exchange) => [exchange.name, exchange] as const))('%s', (_name, exchange) => {
  const read = readExchangeBody(exchange.api, exchange.response, exchange.streamed);
  const path = CORPUS_PATHS[exchange.api];
  const stream = exchange.streamed;
  // An answer with client calls opens the generation; any other answer is what the resume gets.
  const opens = read.toolCalls.length > 0;
  const reply = (body: string) => rawReply(body, stream);

  it(`the adapter reads what the raw answer says (${stream ? 'streamed' : 'JSON'})`, async () => {
    const adapter = createCorpusAdapter(exchange, server.url);
    server.enqueue(path, reply(exchange.response));
    const request = {
      instructions: SUPPORT_INSTRUCTIONS,
      messages: adapter.userMessages('Resolve support ticket 42'),
      tools: [],
      toolChoice: undefined,
    };
    const call = adapter.call(request, { stream });
    if (read.error !== undefined) {
      expectErrorRead(await rejectedProviderError(call), read.error);
      return;
    }
    const response = await call;
    expectResponseRead(exchange.api, response, read);
    expect(adapter.toolCallsIn(response.messages)).toEqual(response.toolCalls);
  });

  it('replays through a pause, a checkpoint as JSON and a resume', async () => {
    if (opens) expect(deskTools).toEqual(expect.arrayContaining(read.toolCalls.map((call) => call.name)));
    const { agent } = createSupportDesk(createCorpusAdapter(exchange, server.url));
    const closing = exchange.nextResponse ?? loadFrame(exchange.api, 'closer', stream);
    if (opens) server.enqueue(path, reply(exchange.response), reply(closing));
    else {
      server.enqueue(path, reply(loadFrame(exchange.api, 'opener', stream)), reply(exchange.response));
      if (read.stopReason === 'pause_turn') server.enqueue(path, reply(closing));
    }

    const paused = await runToStop(agent.handle({ ticketId: 42 }), { stream });
    expect(paused.response.awaitingInput).toBe(true);
    if (opens) {
      expectSameConversation(exchange.api, bodies()[0] ?? {}, exchange.request);
      const asked = paused.response.inputRequests.map((request) => request.toolCallId);
      const calls = agentCalls(exchange, paused.response.checkpoint);
      expectToolCallsRead(calls, read.toolCalls);
      expect(calls.map((call) => call.id)).toEqual(expect.arrayContaining(asked));
    }
    const checkpoint = throughJson(paused.response.checkpoint as Checkpoint);
    const answers = Object.fromEntries(paused.response.inputRequests.map((request) => [request.toolCallId, true]));
    const resumed = runToStop(agent.handle({ ticketId: 42 }), { stream, resume: { checkpoint, answers } });

    if (!opens && read.error !== undefined) {
      expectErrorRead(await rejectedProviderError(resumed), read.error);
      return;
    }
    const done = await resumed;
    expect(done.response.awaitingInput).toBe(false);
    if (stream) expect(textOf(done.parts)).toBe(done.response.text);
    if (opens) {
      if (exchange.nextRequest !== undefined)
        expectSameConversation(exchange.api, bodies()[1] ?? {}, exchange.nextRequest);
      return;
    }
    const continued = read.stopReason === 'pause_turn' ? readExchangeBody(exchange.api, closing, stream).text : '';
    expect(done.response.text).toBe(read.text + continued);
    if (read.stopReason === 'pause_turn' && exchange.nextRequest !== undefined) {
      // The continuation ends with the paused turn, sent back unchanged with nothing after it.
      expectSameConversation(exchange.api, bodies()[2] ?? {}, exchange.nextRequest, { tail: 1 });
    }
  });
});

/** The calls of the checkpoint's paused turn, read back by the exchange's own adapter. */
function agentCalls(exchange: Exchange, checkpoint: Checkpoint | undefined) {
  const stored = throughJson(checkpoint as Checkpoint);
  const adapter = createCorpusAdapter(exchange, 'http://127.0.0.1:9');
  return adapter.toolCallsIn(stored.messages.slice(-(stored.tool_call_turn_size ?? 1)));
}

it('holds recorded exchanges of every API and every server the README lists', () => {
  const recorded = corpus.filter((exchange) => !exchange.handMade);
  expect(new Set(recorded.map((exchange) => exchange.api))).toEqual(new Set(Object.keys(CORPUS_PATHS)));
  const servers = new Set(recorded.map((exchange) => exchange.provenance.server.split(' (')[0]));
  expect([...servers].sort()).toEqual([...COVERED_SERVERS].sort());
});
