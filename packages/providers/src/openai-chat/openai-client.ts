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
  const { env } = process;
  const maxRetries = options.maxRetries ?? 2;
  // What the SDK would read from the environment is part of the key, so a changed variable makes a new client.
  const key = [
    options.apiKey ?? env['OPENAI_API_KEY'],
    options.baseURL ?? env['OPENAI_BASE_URL'],
    maxRetries,
    env['OPENAI_ORG_ID'],
    env['OPENAI_PROJECT_ID'],
    env['OPENAI_WEBHOOK_SECRET'],
    env['OPENAI_LOG'],
  ].join('\n');
  const made = clients.get(key);
  if (made !== undefined) return made;
  // One literal shape (the SDK reads an undefined key as absent): the SDK spreads its options,
  // and an object assembled from conditional spreads made building a client 40 % slower.
  const client = new OpenAI({ apiKey: options.apiKey, baseURL: options.baseURL, maxRetries });
  if (clients.size >= CLIENTS_CACHED) clients.delete(clients.keys().next().value as string);
  clients.set(key, client);
  return client;
}

/**
 * How an adapter reaches its client: the one handed in; else, with an `apiKey` given, one built on
 * first use (at the first model call: building an agent per request or per job then reads no
 * environment and looks nothing up, as the AI SDK's providers build nothing until a call); else,
 * with the key left to `OPENAI_API_KEY`, one built now, so missing credentials throw here, before
 * anything runs, as the SDK's own constructor does.
 */
export function openAIClientSource(options: Omit<OpenAIClientOptions, 'model'>): () => OpenAI {
  if (options.client !== undefined || options.apiKey === undefined) {
    const client = createOpenAIClient(options);
    return () => client;
  }
  let client: OpenAI | undefined;
  return () => {
    client ??= createOpenAIClient(options);
    return client;
  };
}

/**
 * SDK clients built from the same options, shared by every adapter of the process: a client holds
 * no per-request state, and building one (its resources, its environment reads) was most of what
 * `openaiChat()` cost. Bounded, for a process that is handed many keys.
 */
const clients = new Map<string, OpenAI>();
const CLIENTS_CACHED = 16;
