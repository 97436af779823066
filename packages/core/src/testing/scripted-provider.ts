import type {
  FinishReason,
  ModelCallOptions,
  ModelRequest,
  ModelResponse,
  ProviderAdapter,
  ProviderMessage,
  ToolCall,
  ToolChoice,
  ToolResultMessage,
  ToolSpec,
} from '../provider/provider-adapter.js';

/** One scripted model answer: text, or tool calls (with optional text before them). */
export interface ScriptedReply {
  text?: string;
  toolCalls?: ToolCall[];
  /** Anthropic-style stop reason; defaults to `tool_use` with tool calls, else `end_turn`. */
  stopReason?: string;
  usage?: { inputTokens?: number; outputTokens?: number };
}

export type ScriptedResponder = ScriptedReply | ((request: RecordedModelRequest) => ScriptedReply);

/** What the scripted provider was asked, copied at call time. */
export interface RecordedModelRequest {
  instructions: string | undefined;
  messages: ProviderMessage[];
  tools: ToolSpec[];
  toolChoice: ToolChoice | undefined;
}

export interface ScriptedProvider extends ProviderAdapter {
  /** Every request, in order. */
  readonly requests: RecordedModelRequest[];
  /** Replies not used yet. */
  readonly remaining: number;
  /** Queues more replies. */
  push(...replies: ScriptedResponder[]): void;
}

interface AnthropicBlock {
  type: string;
  [key: string]: unknown;
}

/**
 * A model that answers from a script, one reply per call, and records every request. It speaks
 * the Anthropic Messages shape (`{ role, content: [blocks] }`), so checkpoints look like real
 * ones. Tests and the demo use it; a call past the end of the script throws.
 *
 * @example
 *   const model = scriptedProvider([
 *     { toolCalls: [{ id: 'call_1', name: 'lookup_order', arguments: { order_id: 7 } }] },
 *     { text: 'Done.' },
 *   ]);
 */
export function scriptedProvider(
  replies: ScriptedResponder[] = [],
  options: { model?: string } = {},
): ScriptedProvider {
  const queue = [...replies];
  const requests: RecordedModelRequest[] = [];
  return {
    service: 'scripted',
    provider: 'scripted.messages',
    model: options.model ?? 'scripted-1',
    maxContinuations: 10,
    requests,
    get remaining() {
      return queue.length;
    },
    push(...more) {
      queue.push(...more);
    },
    userMessages(text) {
      return [{ role: 'user', content: text }];
    },
    assistantMessages(text) {
      return [{ role: 'assistant', content: [{ type: 'text', text }] }];
    },
    toolResultMessages(results: readonly ToolResultMessage[]) {
      return [
        {
          role: 'user',
          content: results.map((result) => ({
            type: 'tool_result',
            tool_use_id: result.toolCallId,
            content: result.output,
            ...(result.isError && { is_error: true }),
          })),
        },
      ];
    },
    toolCallsIn(turn) {
      return turn
        .flatMap((message) => blocksOf(message))
        .filter((block) => block.type === 'tool_use')
        .map((block) => ({ id: String(block['id']), name: String(block['name']), arguments: block['input'] }));
    },
    async call(request: ModelRequest, callOptions: ModelCallOptions): Promise<ModelResponse> {
      const recorded: RecordedModelRequest = structuredClone({
        instructions: request.instructions,
        messages: [...request.messages],
        tools: [...request.tools],
        toolChoice: request.toolChoice,
      });
      requests.push(recorded);
      const responder = queue.shift();
      if (responder === undefined) throw new Error(`The scripted provider has no reply for call ${requests.length}`);
      const reply = typeof responder === 'function' ? responder(recorded) : responder;
      return respond(reply, requests.length, callOptions);
    },
  };
}

function respond(reply: ScriptedReply, callNumber: number, options: ModelCallOptions): ModelResponse {
  const toolCalls = reply.toolCalls ?? [];
  const content: AnthropicBlock[] = [];
  if (reply.text !== undefined && reply.text !== '') content.push({ type: 'text', text: reply.text });
  for (const call of toolCalls) content.push({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments });
  const stopReason = reply.stopReason ?? (toolCalls.length > 0 ? 'tool_use' : 'end_turn');
  if (options.stream && options.onPart) {
    // Stream the text in two pieces so consumers see more than one delta.
    const text = reply.text ?? '';
    const middle = Math.ceil(text.length / 2);
    for (const piece of [text.slice(0, middle), text.slice(middle)]) {
      if (piece !== '') options.onPart({ type: 'text-delta', text: piece });
    }
    for (const call of toolCalls) options.onPart({ type: 'tool-call', toolCall: call });
  }
  return {
    messages: [{ role: 'assistant', content }],
    toolCalls: toolCalls.map((call) => ({ ...call })),
    text: reply.text ?? '',
    finishReason: mapStopReason(stopReason),
    rawFinishReason: stopReason,
    continuation: stopReason === 'pause_turn',
    usage: { inputTokens: reply.usage?.inputTokens ?? 10, outputTokens: reply.usage?.outputTokens ?? 5 },
    responseId: `msg_scripted_${callNumber}`,
  };
}

function mapStopReason(stopReason: string): FinishReason {
  switch (stopReason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'tool_use':
      return 'tool-calls';
    case 'max_tokens':
      return 'length';
    case 'pause_turn':
      return 'pause';
    case 'refusal':
      return 'content-filter';
    default:
      return 'other';
  }
}

function blocksOf(message: ProviderMessage): AnthropicBlock[] {
  if (typeof message !== 'object' || message === null) return [];
  const content = (message as { content?: unknown }).content;
  return Array.isArray(content) ? (content as AnthropicBlock[]) : [];
}
