import type { ProviderMessage, ToolSpec } from '@interlude/core/provider';

/**
 * The GenAI conventions' structured messages (`gen_ai.input.messages`, `gen_ai.output.messages`):
 * a role and a list of typed parts, whatever API the conversation is stored for. Core keeps
 * messages provider-native (Anthropic Messages, OpenAI Chat, OpenAI Responses items), so each is
 * read by its shape here; a block this file does not know keeps its own `type` as a generic part.
 *
 * @see https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-input-messages.json
 */
export interface GenAiMessage {
  role: string;
  parts: GenAiPart[];
  /** Output messages only. */
  finish_reason?: string;
}

export type GenAiPart =
  | { type: 'text'; content: string }
  | { type: 'reasoning'; content: string }
  | { type: 'tool_call'; id: string; name: string; arguments: unknown }
  | { type: 'tool_call_response'; id: string; response: unknown }
  | { type: string; [key: string]: unknown };

type Fields = Record<string, unknown>;

/** Provider-native messages as GenAI messages: items of one turn that carry no role join the one before. */
export function toGenAiMessages(messages: readonly ProviderMessage[]): GenAiMessage[] {
  const converted: GenAiMessage[] = [];
  for (const message of messages) {
    const next = toGenAiMessage(message as Fields);
    const previous = converted.at(-1);
    // Responses items (a function call, its output) come one per item: one message per role run.
    if (previous !== undefined && next.itemOnly && previous.role === next.message.role) {
      previous.parts.push(...next.message.parts);
    } else converted.push(next.message);
  }
  return converted;
}

/** The answer of one model call, with the provider's finish reason. */
export function toGenAiOutput(messages: readonly ProviderMessage[], finishReason: string): GenAiMessage[] {
  return toGenAiMessages(messages).map((message) => ({ ...message, finish_reason: finishReason }));
}

/** `gen_ai.system_instructions`: the instructions as text parts. */
export function toSystemInstructions(instructions: string): GenAiPart[] {
  return [{ type: 'text', content: instructions }];
}

/** `gen_ai.tool.definitions`: each tool as a function definition. */
export function toToolDefinitions(tools: readonly ToolSpec[]): Fields[] {
  return tools.map((tool) => ({
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters: tool.inputSchema,
  }));
}

function toGenAiMessage(message: Fields): { message: GenAiMessage; itemOnly: boolean } {
  switch (message['type']) {
    case 'function_call':
      return {
        message: {
          role: 'assistant',
          parts: [toolCallPart(message['call_id'], message['name'], message['arguments'])],
        },
        itemOnly: true,
      };
    case 'function_call_output':
      return {
        message: {
          role: 'tool',
          parts: [{ type: 'tool_call_response', id: String(message['call_id']), response: message['output'] }],
        },
        itemOnly: true,
      };
    case 'reasoning':
      return { message: { role: 'assistant', parts: [reasoningPart(message)] }, itemOnly: true };
  }
  const parts = [...contentParts(message['content']), ...chatToolCalls(message['tool_calls'])];
  if (message['role'] === 'tool') {
    // OpenAI Chat: a tool result is its own message.
    return {
      message: {
        role: 'tool',
        parts: [{ type: 'tool_call_response', id: String(message['tool_call_id']), response: message['content'] }],
      },
      itemOnly: false,
    };
  }
  const role = roleOf(message['role']);
  // Anthropic carries tool results in a user turn; the conventions call that turn `tool`.
  const onlyResults = parts.length > 0 && parts.every((part) => part.type === 'tool_call_response');
  return { message: { role: onlyResults ? 'tool' : role, parts }, itemOnly: message['role'] === undefined };
}

function roleOf(role: unknown): string {
  if (role === 'developer') return 'system';
  return typeof role === 'string' ? role : 'assistant';
}

function contentParts(content: unknown): GenAiPart[] {
  if (typeof content === 'string') return [{ type: 'text', content }];
  if (!Array.isArray(content)) return [];
  return content.map((block) => blockPart(block as Fields));
}

function blockPart(block: Fields): GenAiPart {
  switch (block['type']) {
    case 'text':
    case 'input_text':
    case 'output_text':
      return { type: 'text', content: String(block['text'] ?? '') };
    case 'thinking':
      return { type: 'reasoning', content: String(block['thinking'] ?? '') };
    case 'tool_use':
      return toolCallPart(block['id'], block['name'], block['input']);
    case 'tool_result':
      return {
        type: 'tool_call_response',
        id: String(block['tool_use_id']),
        response: block['content'],
        ...(block['is_error'] === true && { is_error: true }),
      };
    default:
      return { ...block, type: String(block['type'] ?? 'unknown') };
  }
}

function chatToolCalls(toolCalls: unknown): GenAiPart[] {
  if (!Array.isArray(toolCalls)) return [];
  return toolCalls.map((call: Fields) => {
    const fn = (call['function'] ?? {}) as Fields;
    return toolCallPart(call['id'], fn['name'], fn['arguments']);
  });
}

/** A tool call; arguments an API sends as a JSON string (OpenAI) are parsed back into the object. */
function toolCallPart(id: unknown, name: unknown, args: unknown): GenAiPart {
  return { type: 'tool_call', id: String(id), name: String(name), arguments: parsedArguments(args) };
}

function parsedArguments(args: unknown): unknown {
  if (typeof args !== 'string') return args;
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return args;
  }
}

function reasoningPart(item: Fields): GenAiPart {
  const summary = Array.isArray(item['summary'])
    ? (item['summary'] as Fields[]).map((entry) => String(entry['text'] ?? '')).join('\n')
    : '';
  return { type: 'reasoning', content: summary };
}
