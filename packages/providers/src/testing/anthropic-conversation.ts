/** A content block of the Messages API, as a scripted model reads and writes them. */
export type AnthropicBlock = Record<string, unknown> & { type: string };

interface WireMessage {
  role: 'user' | 'assistant';
  content: string | AnthropicBlock[];
}

/**
 * What a scripted model needs to know about one request, Messages or Chat Completions: the current
 * user turn, the tools offered, and the tool results since that turn. Earlier turns (a conversation a context
 * store replays) are left out, so a script answers each generation from its own start, whichever
 * process sent the request.
 */
export interface ScriptedConversation {
  /** The text of the current user turn. */
  userText: string;
  toolNames: string[];
  /** Model turns so far in this generation: 0 for its first request. */
  turns: number;
  /** The latest result of each tool called in this generation, by tool name, as the model reads it. */
  results: Map<string, string>;
}

/** Reads a Messages request body (`system`, `messages`, `tools`) into an `ScriptedConversation`. */
export function readAnthropicConversation(body: unknown): ScriptedConversation {
  const request = (body ?? {}) as { messages?: WireMessage[]; tools?: Array<{ name: string }> };
  const messages = request.messages ?? [];
  const start = lastUserTurn(messages);
  const toolNamesById = new Map<string, string>();
  const results = new Map<string, string>();
  let turns = 0;
  for (const message of messages.slice(start)) {
    if (message.role === 'assistant') turns += 1;
    if (typeof message.content === 'string') continue;
    for (const block of message.content) {
      if (block.type === 'tool_use') toolNamesById.set(String(block['id']), String(block['name']));
      if (block.type === 'tool_result') {
        const name = toolNamesById.get(String(block['tool_use_id']));
        if (name !== undefined) results.set(name, textOf(block['content'] as string | AnthropicBlock[]));
      }
    }
  }
  return {
    userText: textOf(messages[start]?.content ?? ''),
    toolNames: (request.tools ?? []).map((tool) => tool.name),
    turns,
    results,
  };
}

/** Index of the last user message that is a person's words rather than tool results. */
function lastUserTurn(messages: readonly WireMessage[]): number {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message === undefined || message.role !== 'user') continue;
    if (typeof message.content === 'string' || message.content.some((block) => block.type === 'text')) return index;
  }
  return 0;
}

function textOf(content: string | AnthropicBlock[]): string {
  if (typeof content === 'string') return content;
  return content.map((block) => (typeof block['text'] === 'string' ? block['text'] : '')).join('');
}

/** A tool call a scripted model makes: `input` is what the tool receives. */
export interface ScriptedToolUse {
  id: string;
  name: string;
  input: unknown;
}

let messageCounter = 0;

/** A Messages API response: text, then tool calls; `tool_use` as stop reason when there are calls. */
export function anthropicMessage(text: string, toolUses: readonly ScriptedToolUse[] = []) {
  messageCounter += 1;
  const content: AnthropicBlock[] = [];
  if (text !== '') content.push({ type: 'text', text });
  for (const call of toolUses) content.push({ type: 'tool_use', ...call });
  return {
    id: `msg_scripted_${messageCounter}`,
    type: 'message',
    role: 'assistant',
    model: 'interlude-scripted',
    stop_reason: toolUses.length > 0 ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 40 + messageCounter, output_tokens: 12 + Math.ceil(text.length / 4) },
    content,
  };
}
