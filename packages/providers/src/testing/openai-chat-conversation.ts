import type { ScriptedConversation } from './anthropic-conversation.js';

interface ChatWireMessage {
  role: string;
  content?: string | null | Array<{ type: string; text?: string }>;
  tool_calls?: Array<{ id: string; function: { name: string } }>;
  tool_call_id?: string;
}

/** Reads a Chat Completions request body (`messages`, `tools`) into a `ScriptedConversation`. */
export function readOpenAIChatConversation(body: unknown): ScriptedConversation {
  const request = (body ?? {}) as { messages?: ChatWireMessage[]; tools?: Array<{ function: { name: string } }> };
  const messages = request.messages ?? [];
  // Tool results are messages of their own (`role: 'tool'`), so the last user message is the turn.
  const start = Math.max(
    0,
    messages.findLastIndex((message) => message.role === 'user'),
  );
  const toolNamesById = new Map<string, string>();
  const results = new Map<string, string>();
  let turns = 0;
  for (const message of messages.slice(start)) {
    if (message.role === 'assistant') turns += 1;
    for (const call of message.tool_calls ?? []) toolNamesById.set(call.id, call.function.name);
    const name = message.role === 'tool' ? toolNamesById.get(message.tool_call_id ?? '') : undefined;
    if (name !== undefined) results.set(name, textOf(message.content));
  }
  return {
    userText: textOf(messages[start]?.content),
    toolNames: (request.tools ?? []).map((tool) => tool.function.name),
    turns,
    results,
  };
}

function textOf(content: ChatWireMessage['content']): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((part) => part.text ?? '').join('');
}
