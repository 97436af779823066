import Anthropic from '@anthropic-ai/sdk';

/**
 * The part of an Anthropic SDK client the adapter uses. `Anthropic` fits, and so does
 * `AnthropicBedrock` (or any client of the same SDK major), which is how Bedrock shares this loop.
 */
export interface AnthropicMessagesClient {
  messages: Pick<Anthropic['messages'], 'create' | 'stream'>;
}

export interface AnthropicClientOptions {
  apiKey?: string;
  baseURL?: string;
  /** The SDK's own retries with backoff on 408/409/429/5xx and lost connections. Default 2. */
  maxRetries?: number;
}

/** The official client, built once per adapter. The API key falls back to `ANTHROPIC_API_KEY`. */
export function createAnthropicClient(options: AnthropicClientOptions): AnthropicMessagesClient {
  return new Anthropic({
    ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
    ...(options.baseURL !== undefined ? { baseURL: options.baseURL } : {}),
    maxRetries: options.maxRetries ?? 2,
  });
}
