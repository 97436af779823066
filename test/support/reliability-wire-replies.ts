import type { ProviderAdapter } from '@interlude/core';
import { anthropic } from '@interlude/providers/anthropic';
import { openaiChat } from '@interlude/providers/openai-chat';
import { openaiResponses } from '@interlude/providers/openai-responses';
import { anthropicStreamEvents, loadFixtures, type WireReply } from '@interlude/providers/testing';

/** The paused turn of the reliability agent: a lookup, a refund to confirm and a PIN to give. */
const TURN = [
  { id: 'call_lookup', name: 'lookup_order', arguments: { order_id: 42 } },
  { id: 'call_refund', name: 'issue_refund', arguments: { order_id: 42, amount: 30 } },
  { id: 'call_pin', name: 'verify_identity', arguments: { customer_id: 7 } },
];

// The SDKs honour `retry-after-ms`: a retried request waits a millisecond, not the default backoff.
const retryNow = { 'retry-after-ms': '1' };

/** How one provider's API answers, fails and breaks on the wire, for a fault-injection test. */
export interface WireScript {
  name: string;
  path: string;
  createAdapter(serverUrl: string, maxRetries: number): ProviderAdapter;
  toolTurn: WireReply;
  finalText: string;
  final(stream: boolean): WireReply;
  /** The final answer's stream, cut after a few frames: headers sent, end never arrives. */
  cut: WireReply;
  rateLimited: WireReply;
  serverError: WireReply;
  /** A 200 whose JSON body stops half way. */
  malformed: WireReply;
}

const fixtures = (adapter: string) =>
  loadFixtures(new URL(`../../packages/providers/src/${adapter}/__fixtures__/`, import.meta.url));

function anthropicScript(): WireScript {
  const recorded = fixtures('anthropic');
  const done = recorded.json<Record<string, unknown>>('refund-done');
  return {
    name: 'anthropic',
    path: '/v1/messages',
    createAdapter: (url, maxRetries) =>
      anthropic({ model: 'claude-sonnet-5-5', baseURL: url, apiKey: 'test', maxRetries }),
    toolTurn: {
      json: {
        id: 'msg_turn',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-5-5',
        content: [
          { type: 'text', text: 'Let me check.' },
          ...TURN.map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments })),
        ],
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 5 },
      },
    },
    finalText: 'Refunded $25 on order 42.',
    final: (stream) => (stream ? { sse: anthropicStreamEvents(done), namedEvents: true } : { json: done }),
    cut: { sse: anthropicStreamEvents(done), namedEvents: true, cutAfter: 3 },
    rateLimited: { json: recorded.json('error-rate-limit'), status: 429, headers: retryNow },
    serverError: { json: recorded.json('error-api'), status: 500, headers: retryNow },
    malformed: { raw: '{"id":"msg_1","type":"message","content":[{"type":"te' },
  };
}

const openaiErrors = {
  rateLimited: {
    json: { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } },
    status: 429,
    headers: retryNow,
  },
  serverError: {
    json: { error: { message: 'The server had an error processing your request.', type: 'server_error' } },
    status: 500,
    headers: retryNow,
  },
} satisfies Pick<WireScript, 'rateLimited' | 'serverError'>;

function openaiChatScript(): WireScript {
  const recorded = fixtures('openai-chat');
  const chunks = recorded.chunks('refund-final-text');
  return {
    name: 'openai-chat',
    path: '/v1/chat/completions',
    createAdapter: (url, maxRetries) =>
      openaiChat({ model: 'gpt-4.1', baseURL: `${url}/v1`, apiKey: 'test', maxRetries }),
    toolTurn: {
      json: {
        id: 'chatcmpl_turn',
        object: 'chat.completion',
        created: 1,
        model: 'gpt-4.1',
        choices: [
          {
            index: 0,
            finish_reason: 'tool_calls',
            message: {
              role: 'assistant',
              content: null,
              tool_calls: TURN.map((call) => ({
                id: call.id,
                type: 'function',
                function: { name: call.name, arguments: JSON.stringify(call.arguments) },
              })),
            },
          },
        ],
      },
    },
    finalText: 'I refunded $25 on order 42.',
    final: (stream) => (stream ? { sse: chunks, done: true } : { json: recorded.json('refund-final-text') }),
    cut: { sse: chunks, cutAfter: 2 },
    ...openaiErrors,
    malformed: { raw: '{"id":"chatcmpl_1","object":"chat.completion","choices":[{"index":0,"mess' },
  };
}

function openaiResponsesScript(): WireScript {
  const recorded = fixtures('openai-responses');
  const chunks = recorded.chunks('refund-final-text');
  return {
    name: 'openai-responses',
    path: '/v1/responses',
    createAdapter: (url, maxRetries) =>
      openaiResponses({ model: 'gpt-5', baseURL: `${url}/v1`, apiKey: 'test', maxRetries }),
    toolTurn: {
      json: {
        id: 'resp_turn',
        object: 'response',
        status: 'completed',
        model: 'gpt-5',
        output: TURN.map((call, index) => ({
          type: 'function_call',
          id: `fc_${index}`,
          call_id: call.id,
          name: call.name,
          arguments: JSON.stringify(call.arguments),
          status: 'completed',
        })),
      },
    },
    finalText: 'I refunded $25 on order 42.',
    final: (stream) => (stream ? { sse: chunks, namedEvents: true } : { json: recorded.json('refund-final-text') }),
    cut: { sse: chunks, namedEvents: true, cutAfter: 3 },
    ...openaiErrors,
    malformed: { raw: '{"id":"resp_1","object":"response","output":[{"type":"mess' },
  };
}

/** Every adapter the suite injects faults into. */
export const WIRE_SCRIPTS: readonly WireScript[] = [anthropicScript(), openaiChatScript(), openaiResponsesScript()];
