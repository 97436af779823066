import { anthropicReply, createWireServer, type WireServer } from '@interlude/providers/testing';
import { readConversation } from './script-conversation.js';
import { scriptedReply } from './story-scripts.js';

/**
 * A local model that speaks the Anthropic Messages wire format (JSON and SSE) and plays the demo
 * stories from each request body. The real `anthropic()` adapter and the official SDK talk to it
 * through `baseURL`, so the demo runs the same provider code a deployment does, offline.
 */
export async function startScriptedModelServer(): Promise<WireServer> {
  const server = await createWireServer();
  server.fallback('/v1/messages', (request) => {
    const body = request.body as { stream?: boolean } | undefined;
    // Keep only the latest requests: the demo runs for hours and nobody reads old ones.
    if (server.requests.length > 50) server.requests.splice(0, server.requests.length - 50);
    return anthropicReply(scriptedReply(readConversation(body)), { stream: body?.stream === true });
  });
  return server;
}
