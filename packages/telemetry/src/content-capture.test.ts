import { describe, expect, it } from 'vitest';
import { openTelemetry } from './open-telemetry.js';
import { refundRunInfo } from './test-generation-info.js';
import { createInMemoryTracing, spanTree } from './testing/index.js';

const info = refundRunInfo;

function runOneTool(captureContent: boolean | undefined, result: unknown) {
  const tracing = createInMemoryTracing();
  const telemetry = openTelemetry({ tracerProvider: tracing.tracerProvider, captureContent });
  const generation = telemetry.startGeneration(info);
  generation
    .startToolCall({ toolName: 'issue_refund', toolCallId: 'call_1', arguments: { order_id: 7, amount: 30 } })
    .end({ result });
  generation.end({ status: 'completed' });
  return spanTree(tracing.finishedSpans())[0]!.children[0]!.attributes;
}

describe('tool content', () => {
  it('is left out by default', () => {
    const attributes = runOneTool(undefined, { refunded: 30 });
    expect(Object.keys(attributes).sort()).toEqual([
      'gen_ai.conversation.id',
      'gen_ai.operation.name',
      'gen_ai.tool.call.id',
      'gen_ai.tool.name',
    ]);
  });

  it('is recorded as JSON when captureContent is on, strings as they are', () => {
    expect(runOneTool(true, { refunded: 30 })).toMatchObject({
      'gen_ai.tool.call.arguments': '{"order_id":7,"amount":30}',
      'gen_ai.tool.call.result': '{"refunded":30}',
    });
    expect(runOneTool(true, 'Refunded.')['gen_ai.tool.call.result']).toBe('Refunded.');
  });

  it('survives a result JSON cannot write', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(runOneTool(true, cyclic)['gen_ai.tool.call.result']).toBe('[unserializable]');
  });
});
