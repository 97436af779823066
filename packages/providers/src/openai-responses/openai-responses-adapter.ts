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
  ResponseCreateParamsNonStreaming,
  ResponseCreateParamsStreaming,
} from 'openai/resources/responses/responses';
import { type OpenAIClientOptions, openAIClientSource } from '../openai-chat/openai-client.js';
import { requestParameters } from '../shared/request-parameters.js';
import { convertAssistantText, convertToolResults, convertUserText } from './convert-to-openai-responses-input.js';
import { mapOpenAIResponsesError, OPENAI_RESPONSES_PROVIDER } from './openai-responses-error.js';
import { buildOpenAIResponsesRequest, type OpenAIResponsesSettings } from './openai-responses-request.js';
import { parseOpenAIResponsesResponse } from './parse-openai-responses-response.js';
import { readOpenAIResponsesStream } from './parse-openai-responses-stream.js';
import { readOpenAIResponsesToolCalls } from './read-openai-responses-items.js';

/** Everything `openaiResponses()` takes: the client (model, key, endpoint, retries) and the request settings. */
export type OpenAIResponsesOptions = OpenAIClientOptions & OpenAIResponsesSettings;

/**
 * The OpenAI Responses tool loop for core. Items are the messages: every output item of a turn
 * (reasoning, message, function calls) is stored in place, so reasoning goes back before the
 * calls it led to, followed by one `function_call_output` per call. The instructions go in
 * `instructions` on every call and are never stored. Calls are stateless (full `input`, no
 * `previous_response_id`), so a checkpoint resumes in any process.
 */
export class OpenAIResponsesAdapter implements ProviderAdapter {
  readonly service = 'openai';
  readonly provider = OPENAI_RESPONSES_PROVIDER;
  readonly model: string;
  readonly requestParameters: RequestParameters;
  private readonly clientSource: () => OpenAI;
  private readonly settings: OpenAIResponsesSettings;

  constructor(options: OpenAIResponsesOptions) {
    const { model, apiKey, baseURL, client, maxRetries, ...settings } = options;
    this.model = model;
    this.settings = settings;
    this.requestParameters = requestParameters({
      maxTokens: settings.maxOutputTokens,
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
    return readOpenAIResponsesToolCalls(turn);
  }

  async call(request: ModelRequest, options: ModelCallOptions): Promise<ModelResponse> {
    const body = buildOpenAIResponsesRequest(this.model, request, this.settings, options.stream);
    const requestOptions = options.signal !== undefined ? { signal: options.signal } : {};
    if (!options.stream) {
      let response: unknown;
      try {
        response = await this.client.responses.create(body as ResponseCreateParamsNonStreaming, requestOptions);
      } catch (error) {
        throw mapOpenAIResponsesError(error);
      }
      return parseOpenAIResponsesResponse(response, request.messages.length);
    }
    let events: AsyncIterable<unknown>;
    try {
      events = await this.client.responses.create(body as ResponseCreateParamsStreaming, requestOptions);
    } catch (error) {
      throw mapOpenAIResponsesError(error);
    }
    return readOpenAIResponsesStream(events, options.onPart, options.signal, request.messages.length);
  }
}

/**
 * An OpenAI Responses adapter: `provider: openaiResponses({ model: 'o4-mini', store: false })`.
 *
 * @example
 * const provider = openaiResponses({ model: 'gpt-5', store: false, reasoning: { effort: 'low' } });
 */
export function openaiResponses(options: OpenAIResponsesOptions): OpenAIResponsesAdapter {
  return new OpenAIResponsesAdapter(options);
}
