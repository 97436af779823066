import { createRuntime, defineAgent, type ProviderAdapter } from '@interlude/core';
import { createRefundScenario, scriptedProvider } from '@interlude/core/testing';
import { openTelemetry } from '@interlude/telemetry';
import { createInMemoryTracing, spanTree } from '@interlude/telemetry/testing';
import { afterEach, expect, it } from 'vitest';

const tracing = createInMemoryTracing();
afterEach(() => tracing.reset());
const runtime = createRuntime({ telemetry: openTelemetry({ tracerProvider: tracing.tracerProvider }) });

it('ends every span of a streamed generation when its stream ends', async () => {
  const scenario = createRefundScenario();
  const support = defineAgent({
    name: 'support_streamed',
    runtime,
    provider: scriptedProvider(scenario.replies),
    actions: { handle: scenario.action },
  });
  const stream = support.handle({ ticketId: 42 }).stream();
  const parts: string[] = [];
  for await (const part of stream) parts.push(part.type);
  expect(parts.at(-1)).toBe('end');
  expect((await stream.response).awaitingInput).toBe(true);

  expect(tracing.openSpanNames()).toEqual([]);
  const [root] = spanTree(tracing.finishedSpans());
  expect(root!.attributes['agent.awaiting_input']).toBe(true);
  expect(root!.children.map((span) => span.name)).toEqual([
    'chat scripted-1',
    'execute_tool lookup_order',
    'execute_tool issue_refund',
  ]);
});

it('ends every span when the reader abandons the stream mid-call, the model call marked failed', async () => {
  const scripted = scriptedProvider();
  // A model that starts answering, then waits until it is told to stop, as a real stream would.
  const slowModel: ProviderAdapter = {
    ...scripted,
    call: (_request, options) =>
      new Promise((_resolve, reject) => {
        options.onPart?.({ type: 'text-delta', text: 'Looking at ticket 42' });
        options.signal?.addEventListener('abort', () => reject(options.signal?.reason), { once: true });
      }),
  };
  const support = defineAgent({
    name: 'support_abandoned',
    runtime,
    provider: slowModel,
    actions: { handle: ({ ticketId }: { ticketId: number }) => ({ message: `Resolve ticket ${ticketId}`, tools: [] }) },
  });
  const stream = support.handle({ ticketId: 42 }).stream();
  for await (const part of stream) {
    expect(part.type).toBe('text-delta');
    break;
  }
  await expect(stream.response).rejects.toThrow('abandoned');

  expect(tracing.openSpanNames()).toEqual([]);
  const [root] = spanTree(tracing.finishedSpans());
  expect(root).toMatchObject({
    name: 'invoke_agent support_abandoned',
    attributes: { 'interlude.outcome': 'failed' },
    status: { code: 'ERROR' },
    children: [
      { name: 'chat scripted-1', status: { code: 'ERROR', message: 'The stream was abandoned by its reader' } },
    ],
  });
});
