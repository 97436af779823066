import { ProviderError } from '../errors/provider-error.js';
import type { ToolCall } from './provider-adapter.js';

/**
 * Refuses a model turn whose client calls cannot each be told apart. Core keys a turn's answers,
 * results, checkpoint entries and events by call id, so two calls sharing one (or both having
 * none) would be merged: the second would never run and the model would read the first result
 * twice. Interlude's adapters make ids up where a server sends none or repeats one; this stops any
 * other adapter's turn before a tool runs or the turn is stored, with a `ProviderError` whose
 * `type` says which: `missing_tool_call_id` or `duplicate_tool_call_id`.
 */
export function assertDistinctToolCallIds(calls: readonly ToolCall[], provider: string): void {
  const seen = new Set<string>();
  for (const [position, call] of calls.entries()) {
    if (typeof call.id !== 'string' || call.id === '') {
      throw refused(provider, 'missing_tool_call_id', `call ${position + 1} (${call.name}) has no id`);
    }
    if (seen.has(call.id)) {
      throw refused(provider, 'duplicate_tool_call_id', `calls share the id ${call.id} (${call.name} is the second)`);
    }
    seen.add(call.id);
  }
}

function refused(provider: string, type: string, detail: string): ProviderError {
  return new ProviderError({
    message: `The model's tool calls cannot be told apart: ${detail}; no tool ran`,
    provider,
    type,
    isRetryable: false,
  });
}
