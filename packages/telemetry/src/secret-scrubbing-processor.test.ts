import { context, propagation, trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { afterEach, describe, expect, it } from 'vitest';
import { openTelemetry } from './open-telemetry.js';
import { secretScrubbingProcessor } from './secret-scrubbing-processor.js';
import { refundRunInfo } from './test-generation-info.js';

/** A scrubber as core hands one over: it learns the secret while the generation runs. */
function growingSecrets() {
  const known: string[] = [];
  return {
    learn: (secret: string) => known.push(secret),
    secrets: {
      get isEmpty() {
        return known.length === 0;
      },
      text: (value: string) => known.reduce((text, secret) => text.replaceAll(secret, '[FILTERED]'), value),
    },
  };
}

afterEach(() => {
  trace.disable();
  context.disable();
  propagation.disable();
});

describe('secretScrubbingProcessor', () => {
  it('scrubs spans started inside a generation, nested generations and before the secret was known, and nothing outside', () => {
    const exporter = new InMemorySpanExporter();
    // Registered, as in production: instrumented libraries read the active context from the global manager.
    const tracerProvider = new NodeTracerProvider({
      spanProcessors: [secretScrubbingProcessor(), new SimpleSpanProcessor(exporter)],
    });
    tracerProvider.register();
    const telemetry = openTelemetry({ tracerProvider });
    const outer = growingSecrets();
    const inner = growingSecrets();
    const library = tracerProvider.getTracer('library');
    const generation = telemetry.startGeneration({ ...refundRunInfo, secrets: outer.secrets });
    const tool = generation.startToolCall({ toolName: 't', toolCallId: 'c1', arguments: {} });
    tool.runInContext(() => {
      const early = library.startSpan('early');
      early.setAttributes({ pin: 4921, list: [1, 4921], words: ['a', 'pin 4921'], ['key 4921']: true });
      outer.learn('4921');
      early.end();
      const nested = telemetry.startGeneration({ ...refundRunInfo, generationId: 'gen_2', secrets: inner.secrets });
      inner.learn('tok-inner');
      nested.runInContext(() => {
        const deep = library.startSpan('deep tok-inner 4921');
        deep.setStatus({ code: 2, message: 'failed with tok-inner' });
        deep.end();
      });
      nested.end({ status: 'completed' });
    });
    tool.end({ result: {} });
    generation.end({ status: 'completed' });
    library.startSpan('outside 4921').end();

    const byName = new Map(exporter.getFinishedSpans().map((span) => [span.name, span]));
    expect(byName.get('early')?.attributes).toEqual({
      pin: '[FILTERED]',
      list: ['1', '[FILTERED]'],
      words: ['a', 'pin [FILTERED]'],
      'key [FILTERED]': true,
    });
    expect(byName.get('deep [FILTERED] [FILTERED]')?.status.message).toBe('failed with [FILTERED]');
    expect(byName.has('outside 4921')).toBe(true);
  });

  it('warns once when a generation with a secret is traced by a provider without it', async () => {
    const warnings: Array<{ code?: string }> = [];
    const listen = (warning: Error & { code?: string }) => warnings.push(warning);
    process.on('warning', listen);
    try {
      const tracerProvider = new BasicTracerProvider({
        spanProcessors: [new SimpleSpanProcessor(new InMemorySpanExporter())],
      });
      const telemetry = openTelemetry({ tracerProvider });
      telemetry.startGeneration(refundRunInfo).end({ status: 'completed' });
      const { learn, secrets } = growingSecrets();
      learn('tok-1234');
      telemetry.startGeneration({ ...refundRunInfo, secrets }).end({ status: 'completed' });
      telemetry.startGeneration({ ...refundRunInfo, secrets }).end({ status: 'completed' });
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((warning) => warning.code)).toEqual(['INTERLUDE_UNSCRUBBED_SPANS']);
    } finally {
      process.off('warning', listen);
    }
  });
});
