import { describe, expect, it } from 'vitest';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';

describe('mapAnthropicStopReason', () => {
  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['tool_use', 'tool-calls'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['pause_turn', 'pause'],
    ['refusal', 'content-filter'],
    ['something_new', 'other'],
    [null, 'other'],
  ])('%s → %s', (stopReason, finishReason) => {
    expect(mapAnthropicStopReason(stopReason)).toBe(finishReason);
  });
});
