/** A content block of the Messages API, as the scripted model reads and writes them. */
export type Block = Record<string, unknown> & { type: string };

interface WireMessage {
  role: 'user' | 'assistant';
  content: string | Block[];
}

/**
 * What a scripted story needs to know about one Messages request: the ticket it is about, the
 * tools offered, and the results of the tools called since the generation's user turn (earlier
 * turns stored by the context store are ignored, so a ticket can be run again).
 */
export interface ScriptConversation {
  ticketId: number | undefined;
  /** The text of the current user turn. */
  userText: string;
  toolNames: string[];
  /** Model turns so far in this generation. */
  turns: number;
  /** The latest result of each tool called in this generation, by tool name, as the model reads it. */
  results: Map<string, string>;
}

/** Reads a Messages request body (`system`, `messages`, `tools`) into a `ScriptConversation`. */
export function readConversation(body: unknown): ScriptConversation {
  const request = (body ?? {}) as { messages?: WireMessage[]; tools?: Array<{ name: string }> };
  const messages = request.messages ?? [];
  const start = lastUserTurn(messages);
  const current = messages.slice(start);
  const userText = textOf(messages[start]?.content ?? '');
  const toolNamesById = new Map<string, string>();
  const results = new Map<string, string>();
  let turns = 0;
  for (const message of current) {
    if (message.role === 'assistant') turns += 1;
    if (typeof message.content === 'string') continue;
    for (const block of message.content) {
      if (block.type === 'tool_use') toolNamesById.set(String(block['id']), String(block['name']));
      if (block.type === 'tool_result') {
        const name = toolNamesById.get(String(block['tool_use_id']));
        if (name !== undefined) results.set(name, textOf(block['content'] as string | Block[]));
      }
    }
  }
  const ticketMatch = /ticket #(\d+)/.exec(userText);
  return {
    ticketId: ticketMatch ? Number(ticketMatch[1]) : undefined,
    userText,
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

function textOf(content: string | Block[]): string {
  if (typeof content === 'string') return content;
  return content.map((block) => (typeof block['text'] === 'string' ? block['text'] : '')).join('');
}

let messageCounter = 0;

/** A Messages API response: text, then tool calls; `tool_use` as stop reason when there are calls. */
export function reply(text: string, toolUses: Array<{ id: string; name: string; input: unknown }> = []) {
  messageCounter += 1;
  const content: Block[] = [];
  if (text !== '') content.push({ type: 'text', text });
  for (const call of toolUses) content.push({ type: 'tool_use', ...call });
  return {
    id: `msg_demo_${messageCounter}`,
    type: 'message',
    role: 'assistant',
    model: 'interlude-scripted',
    stop_reason: toolUses.length > 0 ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 40 + messageCounter, output_tokens: 12 + Math.ceil(text.length / 4) },
    content,
  };
}
