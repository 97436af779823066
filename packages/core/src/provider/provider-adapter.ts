/**
 * The provider spec: what a tool-loop adapter (Anthropic Messages, OpenAI Chat Completions,
 * OpenAI Responses, the scripted test provider) implements so the generation machine can drive
 * it. Core never imports an SDK; adapters live in `@interlude/providers`.
 *
 * Messages are provider-native JSON values: core stores them in checkpoints untouched and only
 * ever appends what the adapter gives it.
 */

/** A JSON Schema object, as sent to providers and kept in checkpoints. */
export type JsonSchema = Record<string, unknown>;

/** A provider-native conversation item (an Anthropic message, a Responses item, …). */
export type ProviderMessage = unknown;

/** A tool as the provider sees it. `requiresApproval` lists are never part of it. */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: JsonSchema;
}

/**
 * `auto` lets the model choose; `required` forces some tool; `{ type: 'tool', name }` forces
 * one tool; `none` forbids tools. Adapters map this to their API's shape.
 */
export type ToolChoice = 'auto' | 'none' | 'required' | { type: 'tool'; name: string };

/** One call the model asked for. `arguments` is the parsed JSON the model wrote. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: unknown;
}

/** One finished call of a turn, ready to go back to the model. */
export interface ToolResultMessage {
  toolCallId: string;
  toolName: string;
  /** What the tool returned (scrubbed of secrets). */
  result: unknown;
  /** `result` as the model reads it: strings as they are, anything else as JSON. */
  output: string;
  isError: boolean;
}

export type FinishReason = 'stop' | 'tool-calls' | 'length' | 'content-filter' | 'pause' | 'error' | 'other';

export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
}

export interface ModelRequest {
  /** Rendered from the action's instructions on every call; never stored in `messages`. */
  instructions: string | undefined;
  messages: readonly ProviderMessage[];
  tools: readonly ToolSpec[];
  /** Undefined means the provider's default (auto). */
  toolChoice: ToolChoice | undefined;
  /**
   * For adapters whose SDK runs its own tool loop: runs one call outside the generation loop.
   * Such a loop cannot pause, so a gated call (before it runs) or a tool that asks for input
   * throws `UnsupportedProviderError`. An adapter that can pause does not call it: it returns
   * the calls in `ModelResponse.toolCalls`, and the generation runs them.
   */
  executeTool?: (call: ToolCall) => Promise<ToolResultMessage>;
}

export interface ModelResponse {
  /** Items to append to the conversation: the assistant turn, in provider-native form. */
  messages: ProviderMessage[];
  /** Client tool calls in the order the model wrote them. */
  toolCalls: ToolCall[];
  text: string;
  finishReason: FinishReason;
  /** The provider's own stop reason (`end_turn`, `tool_calls`, `pause_turn`, …). */
  rawFinishReason?: string;
  /**
   * The provider paused its own turn (Anthropic `pause_turn` on server tools): the loop appends
   * `messages` and calls again with nothing added, up to `maxContinuations` times in a row.
   */
  continuation?: boolean;
  usage?: Usage;
  responseId?: string;
  /** The model the provider says answered, when it says so. */
  responseModel?: string;
}

export type ModelStreamPart = { type: 'text-delta'; text: string } | { type: 'tool-call'; toolCall: ToolCall };

export interface ModelCallOptions {
  /** Stream the answer (SSE) and report parts through `onPart` as they arrive. */
  stream: boolean;
  onPart?: (part: ModelStreamPart) => void;
  signal?: AbortSignal;
}

/** What an adapter sends on every call besides the messages, named as the GenAI conventions name them. */
export interface RequestParameters {
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
}

export interface ProviderAdapter {
  /** The API vendor: `anthropic`, `openai`, `scripted`. Stored as the checkpoint's `service`. */
  readonly service: string;
  /** The wire API: `anthropic.messages`, `openai.chat`, `openai.responses`. Checkpoint `provider`. */
  readonly provider: string;
  readonly model: string;
  /** How many `continuation` responses in a row the loop follows (Anthropic: 10). Default 0. */
  readonly maxContinuations?: number;
  /** The sampling settings every call sends, for traces (`gen_ai.request.*`); only those set. */
  readonly requestParameters?: RequestParameters;
  /** The conversation's opening user turn. */
  userMessages(text: string): ProviderMessage[];
  /** A plain assistant text turn, used to replay a stored conversation (`hasContext`). */
  assistantMessages?(text: string): ProviderMessage[];
  /** One turn's tool results, in call order, as the messages that carry them back. */
  toolResultMessages(results: readonly ToolResultMessage[]): ProviderMessage[];
  /** The client tool calls held in a stored tool-call turn (the checkpoint's last items). */
  toolCallsIn(turn: readonly ProviderMessage[]): ToolCall[];
  /** One model call. Throws `ProviderError` on failure, after the adapter's own retries. */
  call(request: ModelRequest, options: ModelCallOptions): Promise<ModelResponse>;
}
