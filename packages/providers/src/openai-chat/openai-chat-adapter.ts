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
import type OpenAI from 'openai';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
} from 'openai/resources/chat/completions';
import { requestParameters } from '../shared/request-parameters.js';
import { convertAssistantText, convertToolResults, convertUserText } from './convert-to-openai-chat-messages.js';
import { mapOpenAIError, OPENAI_CHAT_LABEL, OPENAI_CHAT_PROVIDER } from './openai-chat-error.js';
import { buildOpenAIChatRequest, type OpenAIChatSettings } from './openai-chat-request.js';
import { type OpenAIClientOptions, openAIClientSource } from './openai-client.js';
import { parseOpenAIChatResponse } from './parse-openai-chat-response.js';
import { readOpenAIChatStream } from './parse-openai-chat-stream.js';
import { readOpenAIChatToolCalls } from './read-openai-chat-tool-calls.js';

/** Everything `openaiChat()` takes: the client (model, key, endpoint, retries) and the request settings. */
export type OpenAIChatOptions = OpenAIClientOptions & OpenAIChatSettings;

/**
 * The OpenAI Chat Completions tool loop for core: one call per model turn through the official
 * SDK, streamed or not. Messages are stored exactly as Chat Completions takes them back (user,
 * assistant with `tool_calls`, one `tool` message per call); the instructions go out as one
 * leading developer message built on every call and never stored.
 */
export class OpenAIChatAdapter implements ProviderAdapter {
  readonly service = 'openai';
  readonly provider = OPENAI_CHAT_PROVIDER;
  readonly model: string;
  readonly requestParameters: RequestParameters;
  private readonly clientSource: () => OpenAI;
  private readonly settings: OpenAIChatSettings;

  constructor(options: OpenAIChatOptions) {
    const { model, apiKey, baseURL, client, maxRetries, ...settings } = options;
    this.model = model;
    this.settings = settings;
    this.requestParameters = requestParameters({
      maxTokens: settings.maxCompletionTokens,
      temperature: settings.temperature,
    });
    this.clientSource = openAIClientSource({ apiKey, baseURL, client, maxRetries });
  }

  /** The official SDK client it calls through (`openAIClientSource`: built on first use when an `apiKey` was given). */
  get client(): OpenAI {
    return this.clientSource();
  }

  userMessages(text: string): ProviderMessage[] {
    return convertUserText(text);
  }

  assistantMessages(text: string): ProviderMessage[] {
    return convertAssistantText(text);
  }

  toolResultMessages(results: readonly ToolResultMessage[]): ProviderMessage[] {
    return convertToolResults(results);
  }

  toolCallsIn(turn: readonly ProviderMessage[]): ToolCall[] {
    return readOpenAIChatToolCalls(turn);
  }

  async call(request: ModelRequest, options: ModelCallOptions): Promise<ModelResponse> {
    const body = buildOpenAIChatRequest(this.model, request, this.settings, options.stream);
    const requestOptions = options.signal !== undefined ? { signal: options.signal } : {};
    if (!options.stream) {
      let completion: unknown;
      try {
        completion = await this.client.chat.completions.create(
          body as ChatCompletionCreateParamsNonStreaming,
          requestOptions,
        );
      } catch (error) {
        throw mapOpenAIError(error, OPENAI_CHAT_PROVIDER, OPENAI_CHAT_LABEL);
      }
      return parseOpenAIChatResponse(completion, request.messages.length);
    }
    let chunks: AsyncIterable<unknown>;
    try {
      chunks = await this.client.chat.completions.create(body as ChatCompletionCreateParamsStreaming, requestOptions);
    } catch (error) {
      throw mapOpenAIError(error, OPENAI_CHAT_PROVIDER, OPENAI_CHAT_LABEL);
    }
    return readOpenAIChatStream(chunks, options.onPart, options.signal, request.messages.length);
  }
}

/**
 * An OpenAI Chat Completions adapter: `provider: openaiChat({ model: 'gpt-4.1' })`. Works with any
 * compatible endpoint through `baseURL` or a ready `client`.
 *
 * @example
 * const provider = openaiChat({ model: 'llama3.1', baseURL: 'http://localhost:11434/v1', apiKey: 'ollama' });
 */
export function openaiChat(options: OpenAIChatOptions): OpenAIChatAdapter {
  return new OpenAIChatAdapter(options);
}
