import {
  type AnthropicConversation,
  anthropicMessage,
  readAnthropicConversation,
  type ScriptedToolUse,
} from './anthropic-conversation.js';
import { anthropicReply } from './anthropic-replies.js';
import { createWireServer, type WireServer } from './wire-server.js';

/** One model turn: its text, then the tools it calls (none: the generation's final answer). */
export interface ScriptedTurn {
  text?: string;
  toolUses?: readonly ScriptedToolUse[];
}

/** The turns of every generation, in order; a function reads the conversation (tool results, say). */
export type ModelScript = readonly (ScriptedTurn | ((conversation: AnthropicConversation) => ScriptedTurn))[];

/** The requests a long-running model keeps for a test to read; older ones are dropped. */
const KEPT_REQUESTS = 50;

/**
 * A fake model for several processes: a local server speaking the Anthropic Messages wire format
 * (JSON and SSE), which answers each request with the script's turn for that point of its
 * generation (the model turns already in the request). It keeps no state between requests, so
 * any number of processes, and a resume in another process, share it: point `anthropic()` at
 * it with `baseURL`, or set `ANTHROPIC_BASE_URL`, which the official SDK reads. A request past the
 * script's end gets a 400 that says so.
 */
export async function startScriptedModel(script: ModelScript, options: { port?: number } = {}): Promise<WireServer> {
  const server = await createWireServer(options);
  server.fallback('/v1/messages', (request) => {
    if (server.requests.length > KEPT_REQUESTS) server.requests.splice(0, server.requests.length - KEPT_REQUESTS);
    const body = request.body as { stream?: boolean } | undefined;
    const conversation = readAnthropicConversation(body);
    const step = script[conversation.turns];
    if (step === undefined) {
      const message = `the script has ${script.length} turns; this request asks for turn ${conversation.turns + 1}`;
      return { json: { type: 'error', error: { type: 'invalid_request_error', message } }, status: 400 };
    }
    const turn = typeof step === 'function' ? step(conversation) : step;
    return anthropicReply(anthropicMessage(turn.text ?? '', turn.toolUses ?? []), { stream: body?.stream === true });
  });
  return server;
}
