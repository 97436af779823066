import { type AnthropicOptions, anthropic } from '../anthropic/anthropic-adapter.js';

/**
 * The Anthropic adapter the tests point at a wire server: `claude-sonnet-5-5`, a test key, no
 * retries unless a test asks for them, plus whatever options the test is about (server tools,
 * thinking, cache). One place to say how a test adapter is built, so suites differ only in the
 * option they exercise.
 *
 * @example
 * const desk = createSupportDesk(createAnthropicOnWire(server.url, { thinking: { type: 'enabled', budget_tokens: 2048 } }));
 */
export function createAnthropicOnWire(baseURL: string, options: Partial<AnthropicOptions> = {}) {
  return anthropic({ model: 'claude-sonnet-5-5', baseURL, apiKey: 'test', maxRetries: 0, ...options });
}
