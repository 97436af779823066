import type { FinishReason } from '@interlude/core/provider';

/**
 * The Messages API's `stop_reason` as core's finish reason. `pause_turn` is `pause`: the API
 * stopped a long server-tool turn and wants the same content back to carry on, so the loop
 * must never read it as final.
 *
 * @see https://docs.anthropic.com/en/api/handling-stop-reasons
 */
export function mapAnthropicStopReason(stopReason: string | null | undefined): FinishReason {
  switch (stopReason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'tool_use':
      return 'tool-calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'pause_turn':
      return 'pause';
    case 'refusal':
      return 'content-filter';
    default:
      return 'other';
  }
}
