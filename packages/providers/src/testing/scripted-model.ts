import {
  anthropicMessage,
  readAnthropicConversation,
  type ScriptedConversation,
  type ScriptedToolUse,
} from './anthropic-conversation.js';
import { anthropicReply } from './anthropic-replies.js';
import { readOpenAIChatConversation } from './openai-chat-conversation.js';
import { openaiChatCompletion, openaiChatReply, openaiChatToolCall } from './openai-chat-replies.js';
import { createWireServer, type WireReply, type WireServer } from './wire-server.js';

/** One model turn: its text, then the tools it calls (none: the generation's final answer). */
export interface ScriptedTurn {
  text?: string;
  toolUses?: readonly ScriptedToolUse[];
}

/** The turns of every generation, in order; a function reads the conversation (tool results, say). */
export type ModelScript = readonly (ScriptedTurn | ((conversation: ScriptedConversation) => ScriptedTurn))[];

/** The requests a long-running model keeps for a test to read; older ones are dropped. */
const KEPT_REQUESTS = 50;

/** The wire formats a scripted model speaks, each on the path its official SDK calls. */
const FORMATS = {
  anthropic: { path: '/v1/messages', read: readAnthropicConversation, reply: anthropicTurn, refuse: anthropicRefusal },
  'openai-chat': {
    path: '/v1/chat/completions',
    read: readOpenAIChatConversation,
    reply: openaiChatTurn,
    refuse: openaiChatRefusal,
  },
} as const;

export type ScriptedModelFormat = keyof typeof FORMATS;

/**
 * A fake model for several processes: a local server speaking a provider's wire format (JSON and
 * SSE), which answers each request with the script's turn for that point of its generation (the
 * model turns already in the request). It keeps no state between requests, so any number of
 * processes, and a resume in another process, share it. `format` is `anthropic` (the Messages
 * API, the default: point `anthropic()` at `url`, or set `ANTHROPIC_BASE_URL`) or `openai-chat`
 * (Chat Completions: point `openaiChat()` at `${url}/v1`, or set `OPENAI_BASE_URL`). A request
 * past the script's end gets a 400 that says so.
 */
export async function startScriptedModel(
  script: ModelScript,
  options: { port?: number; format?: ScriptedModelFormat } = {},
): Promise<WireServer> {
  const name = options.format ?? 'anthropic';
  // Checked before the server starts, for callers without the types.
  if (!Object.hasOwn(FORMATS, name)) {
    const message = `startScriptedModel: format must be one of ${Object.keys(FORMATS).join(', ')}, not ${String(name)}`;
    throw Object.assign(new Error(message), { code: 'unknown_format' });
  }
  const format = FORMATS[name];
  const server = await createWireServer(options.port === undefined ? {} : { port: options.port });
  server.fallback(format.path, (request) => {
    if (server.requests.length > KEPT_REQUESTS) server.requests.splice(0, server.requests.length - KEPT_REQUESTS);
    const conversation = format.read(request.body);
    const step = script[conversation.turns];
    if (step === undefined) {
      return format.refuse(
        `the script has ${script.length} turns; this request asks for turn ${conversation.turns + 1}`,
      );
    }
    return format.reply(typeof step === 'function' ? step(conversation) : step, request.body);
  });
  return server;
}

function anthropicTurn(turn: ScriptedTurn, body: unknown): WireReply {
  const stream = (body as { stream?: boolean } | undefined)?.stream === true;
  return anthropicReply(anthropicMessage(turn.text ?? '', turn.toolUses ?? []), { stream });
}

function anthropicRefusal(message: string): WireReply {
  return { json: { type: 'error', error: { type: 'invalid_request_error', message } }, status: 400 };
}

function openaiChatTurn(turn: ScriptedTurn, body: unknown): WireReply {
  const toolUses = turn.toolUses ?? [];
  const message = {
    content: turn.text === undefined || turn.text === '' ? null : turn.text,
    ...(toolUses.length > 0 && { tool_calls: toolUses.map(openaiChatToolCall) }),
  };
  return openaiChatReply(openaiChatCompletion(message, toolUses.length > 0 ? 'tool_calls' : 'stop'), body);
}

function openaiChatRefusal(message: string): WireReply {
  return { json: { error: { message, type: 'invalid_request_error', param: null, code: null } }, status: 400 };
}
