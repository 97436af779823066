export {
  ANTHROPIC_MAX_CONTINUATIONS,
  AnthropicAdapter,
  type AnthropicOptions,
  anthropic,
} from './anthropic-adapter.js';
export type { AnthropicClientOptions, AnthropicMessagesClient } from './anthropic-client.js';
export { ANTHROPIC_PROVIDER, toAnthropicProviderError } from './anthropic-error.js';
export type { AnthropicServerTool } from './anthropic-prepare-tools.js';
export type { StoredAnthropicMessage } from './convert-to-anthropic-messages.js';
