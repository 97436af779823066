import type { MessageCreateParamsNonStreaming, ThinkingConfigParam } from '@anthropic-ai/sdk/resources/messages';
import type { ModelRequest } from '@interlude/core/provider';
import { withCacheBreakpoint } from './anthropic-cache-control.js';
import { latestContainerId } from './anthropic-container.js';
import { type AnthropicServerTool, prepareAnthropicTools } from './anthropic-prepare-tools.js';
import { toWireMessages } from './convert-to-anthropic-messages.js';

/** What every request of one adapter shares. */
export interface AnthropicRequestSettings {
  model: string;
  maxTokens: number;
  cache: boolean;
  thinking: ThinkingConfigParam | undefined;
  serverTools: readonly AnthropicServerTool[];
  /** The time a container's expiry is judged by (`AnthropicOptions.now`). */
  now: () => Date;
}

/**
 * One Messages request from core's `ModelRequest`. The instructions go in `system` on every
 * call (never into the stored messages), the stored messages go out as stored (a `pause_turn`
 * continuation ends with the paused assistant content, unchanged), the container of the last
 * code-execution turn is reused unless the settings' clock says it has expired, and with `cache`
 * the last block gets a breakpoint on a copy. The clock is read once per request.
 *
 * @see https://docs.anthropic.com/en/api/messages
 */
export function buildAnthropicRequest(
  request: ModelRequest,
  settings: AnthropicRequestSettings,
): MessageCreateParamsNonStreaming {
  const wireMessages = toWireMessages(request.messages);
  const { tools, toolChoice } = prepareAnthropicTools(request.tools, settings.serverTools, request.toolChoice);
  const container = latestContainerId(request.messages, settings.now());
  return {
    model: settings.model,
    max_tokens: settings.maxTokens,
    ...(request.instructions ? { system: request.instructions } : {}),
    messages: settings.cache ? withCacheBreakpoint(wireMessages) : wireMessages,
    ...(tools !== undefined ? { tools } : {}),
    ...(toolChoice !== undefined ? { tool_choice: toolChoice } : {}),
    ...(settings.thinking !== undefined ? { thinking: settings.thinking } : {}),
    ...(container !== undefined ? { container } : {}),
  };
}
