import type { GenerationTraceInfo } from '@interlude/core/internal';
import { afterEach, describe, expect, it } from 'vitest';
import { openTelemetry } from './open-telemetry.js';
import { createInMemoryTracing, spanTree } from './testing/index.js';

const tracing = createInMemoryTracing();
const telemetry = openTelemetry({ tracerProvider: tracing.tracerProvider });
afterEach(() => tracing.reset());

const info: GenerationTraceInfo = {
  agent: 'support',
  action: 'handle',
  generationId: 'gen_1',
  provider: 'openai.chat',
  model: 'gpt-5',
  resumed: false,
};

/** What core does with an error that held a secret: a copy with the message scrubbed. */
function scrubbedCopy(original: Error): Error {
  const copy = new Error(original.message.replaceAll('hunter2', '[FILTERED]'));
  copy.name = original.name;
  if (original.stack !== undefined) copy.stack = original.stack;
  return copy;
}

describe('failures', () => {
  it('records a failed model call on its own span: status, exception event, error.type', () => {
    const generation = telemetry.startGeneration(info);
    const error = new Error('429 rate limited');
    error.name = 'ProviderError';
    generation.startModelCall({ provider: 'openai.chat', service: 'openai', model: 'gpt-5' }).fail(error);
    generation.end({ status: 'failed', error });

    const [root] = spanTree(tracing.finishedSpans());
    const [chat] = root!.children;
    for (const span of [root!, chat!]) {
      expect(span.status).toEqual({ code: 'ERROR', message: '429 rate limited' });
      expect(span.attributes['error.type']).toBe('ProviderError');
      expect(span.events).toEqual([
        {
          name: 'exception',
          attributes: {
            'exception.type': 'ProviderError',
            'exception.message': '429 rate limited',
            'exception.stacktrace': expect.stringMatching(/^ProviderError: 429 rate limited\n\s+at /),
          },
        },
      ]);
    }
    expect(root!.attributes['interlude.outcome']).toBe('failed');
  });

  it("records the scrubbed message, never the original one left in a copy's stack", () => {
    const generation = telemetry.startGeneration(info);
    const tool = generation.startToolCall({ toolName: 'login', toolCallId: 'call_1', arguments: {} });
    tool.fail(scrubbedCopy(new Error('password hunter2 rejected')));
    generation.end({ status: 'completed' });

    const serialized = JSON.stringify(spanTree(tracing.finishedSpans()));
    expect(serialized).toContain('password [FILTERED] rejected');
    expect(serialized).not.toContain('hunter2');
  });

  it('marks a tool that returned an error result as failed, with the message the model read', () => {
    const generation = telemetry.startGeneration(info);
    generation
      .startToolCall({ toolName: 'close_account', toolCallId: 'call_1', arguments: {} })
      .end({ result: { error: 'declined by user' }, isError: true });
    generation.end({ status: 'completed' });

    const [tool] = spanTree(tracing.finishedSpans())[0]!.children;
    expect(tool).toMatchObject({
      status: { code: 'ERROR', message: 'declined by user' },
      attributes: { 'error.type': 'tool_error' },
      events: [],
    });
  });

  it('marks a failed generation without an error object as failed all the same', () => {
    telemetry.startGeneration(info).end({ status: 'failed' });
    expect(spanTree(tracing.finishedSpans())[0]!.status).toEqual({ code: 'ERROR' });
  });
});
