import type { ThinkingConfigParam } from '@anthropic-ai/sdk/resources/messages';
import type {
  ModelCallOptions,
  ModelRequest,
  ModelResponse,
  ProviderAdapter,
  ProviderMessage,
  RequestParameters,
  ToolCall,
  ToolResultMessage,
} from '@interlude/core/provider';
import {
  type AnthropicClientOptions,
  type AnthropicMessagesClient,
  createAnthropicClient,
} from './anthropic-client.js';
import { ANTHROPIC_PROVIDER, toAnthropicProviderError } from './anthropic-error.js';
import type { AnthropicServerTool } from './anthropic-prepare-tools.js';
import { type AnthropicRequestSettings, buildAnthropicRequest } from './build-anthropic-request.js';
import {
  readAnthropicToolCalls,
  toAnthropicAssistantMessages,
  toAnthropicToolResultMessages,
  toAnthropicUserMessages,
} from './convert-to-anthropic-messages.js';
import { parseAnthropicResponse } from './parse-anthropic-response.js';
import { streamAnthropicMessage } from './stream-anthropic-message.js';

export interface AnthropicOptions extends AnthropicClientOptions {
  /** The model name, e.g. `claude-sonnet-5-5`; stored in checkpoints, so a resume needs the same one. */
  model: string;
  /** A ready client (`new Anthropic(...)`, `new AnthropicBedrock(...)`); `apiKey`/`baseURL`/`maxRetries` are then unused. */
  client?: AnthropicMessagesClient;
  /** `max_tokens` of every call. Default 4096. */
  maxTokens?: number;
  /** Prompt caching: a breakpoint on the last block of the last message of every call. */
  cache?: boolean;
  /** Extended thinking, sent as is; thinking blocks are kept verbatim across calls and pauses. */
  thinking?: ThinkingConfigParam;
  /** Tools the API runs itself (`web_search`, `web_fetch`, `code_execution`), sent as written. */
  serverTools?: AnthropicServerTool[];
  /**
   * The clock a code-execution container's `expires_at` is judged by when the next request is
   * built. Default: the system clock. Replays and tests pin it, so a recorded container is reused
   * (or dropped) the same way on every run, whatever the day.
   */
  now?: () => Date;
}

/** How many `pause_turn` continuations in a row the loop follows before it stops. */
export const ANTHROPIC_MAX_CONTINUATIONS = 10;

/**
 * The Anthropic Messages tool loop, on the official SDK. Core drives it: this class only turns
 * one `ModelRequest` into one API call (streamed or not) and the answer back into stored
 * messages, so a paused generation's checkpoint holds plain Messages JSON that any process can
 * resume. `pause_turn` answers are continuations: core sends the paused content straight back,
 * at most ten times in a row.
 */
export class AnthropicAdapter implements ProviderAdapter {
  readonly service = 'anthropic';
  readonly provider = ANTHROPIC_PROVIDER;
  readonly model: string;
  readonly maxContinuations = ANTHROPIC_MAX_CONTINUATIONS;
  readonly #client: AnthropicMessagesClient;
  readonly requestParameters: RequestParameters;
  readonly #settings: AnthropicRequestSettings;

  constructor(options: AnthropicOptions) {
    this.model = options.model;
    this.#client = options.client ?? createAnthropicClient(options);
    this.#settings = {
      model: options.model,
      maxTokens: options.maxTokens ?? 4096,
      cache: options.cache ?? false,
      thinking: options.thinking,
      serverTools: options.serverTools ?? [],
      now: options.now ?? (() => new Date()),
    };
    this.requestParameters = { maxTokens: this.#settings.maxTokens };
  }

  userMessages(text: string): ProviderMessage[] {
    return toAnthropicUserMessages(text);
  }

  assistantMessages(text: string): ProviderMessage[] {
    return toAnthropicAssistantMessages(text);
  }

  toolResultMessages(results: readonly ToolResultMessage[]): ProviderMessage[] {
    return toAnthropicToolResultMessages(results);
  }

  toolCallsIn(turn: readonly ProviderMessage[]): ToolCall[] {
    return readAnthropicToolCalls(turn);
  }

  async call(request: ModelRequest, options: ModelCallOptions): Promise<ModelResponse> {
    const params = buildAnthropicRequest(request, this.#settings);
    let raw: unknown;
    try {
      raw = options.stream
        ? await streamAnthropicMessage(this.#client, params, options)
        : await this.#client.messages.create(params, options.signal ? { signal: options.signal } : undefined);
    } catch (error) {
      throw toAnthropicProviderError(error);
    }
    return parseAnthropicResponse(raw);
  }
}

/**
 * The Anthropic Messages adapter.
 *
 * @example
 * ```ts
 * const support = defineAgent({ name: 'support', provider: anthropic({ model: 'claude-sonnet-5-5', cache: true }), … });
 * ```
 */
export function anthropic(options: AnthropicOptions): AnthropicAdapter {
  return new AnthropicAdapter(options);
}
