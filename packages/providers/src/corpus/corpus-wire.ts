import type { ProviderAdapter } from '@interlude/core/provider';
import { anthropic } from '../anthropic/index.js';
import { openaiChat } from '../openai-chat/index.js';
import { openaiResponses } from '../openai-responses/index.js';
import type { WireReply } from '../testing/wire-server.js';
import type { CorpusApi, Exchange } from './corpus-exchanges.js';
import { readAnthropicExchange } from './read-anthropic-exchange.js';
import { readOpenAIChatExchange } from './read-openai-chat-exchange.js';
import { readOpenAIResponsesExchange } from './read-openai-responses-exchange.js';
import type { ReadTurn } from './read-turn.js';

/** The endpoint each API's SDK posts to. */
export const CORPUS_PATHS: Record<CorpusApi, string> = {
  anthropic: '/v1/messages',
  'openai-chat': '/v1/chat/completions',
  'openai-responses': '/v1/responses',
};

/**
 * The adapter of an exchange's API, on the official SDK, pointed at the wire server, built the
 * way the recorded client was (`provenance.adapter`), and with its clock at the recording's time
 * so anything judged by time (a container's expiry) replays the same way every run.
 */
export function createCorpusAdapter(exchange: Exchange, serverUrl: string): ProviderAdapter {
  const { model, adapter: options = {}, clock } = exchange.provenance;
  const common = { model, apiKey: 'test', maxRetries: 0, ...options };
  switch (exchange.api) {
    case 'anthropic':
      return anthropic({ ...common, baseURL: serverUrl, ...(clock !== undefined && { now: () => new Date(clock) }) });
    case 'openai-chat':
      return openaiChat({ ...common, baseURL: `${serverUrl}/v1` });
    case 'openai-responses':
      return openaiResponses({ ...common, baseURL: `${serverUrl}/v1` });
  }
}

/** A raw body served byte for byte: the framing, comments and trailing spaces are the recording's. */
export function rawReply(body: string, streamed: boolean): WireReply {
  return { raw: body, contentType: streamed ? 'text/event-stream' : 'application/json' };
}

/** Reads a raw answer with the corpus's own reader for its API. */
export function readExchangeBody(api: CorpusApi, body: string, streamed: boolean): ReadTurn {
  switch (api) {
    case 'anthropic':
      return readAnthropicExchange(body, streamed);
    case 'openai-chat':
      return readOpenAIChatExchange(body, streamed);
    case 'openai-responses':
      return readOpenAIResponsesExchange(body, streamed);
  }
}

/** The part of a request body that is the conversation: what a resume must send exactly as the server accepted it. */
export function conversationOf(api: CorpusApi, body: Record<string, unknown>): Record<string, unknown> {
  switch (api) {
    case 'anthropic':
      return { system: body['system'], messages: body['messages'] };
    case 'openai-chat':
      return { messages: body['messages'] };
    case 'openai-responses':
      return { instructions: body['instructions'], input: body['input'] };
  }
}
