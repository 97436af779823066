import { createRuntime, defineAgent, delegate, InputRequest, tool } from '@interlude/core';
import { type RecordedModelRequest, scriptedProvider } from '@interlude/core/testing';
import { openTelemetry } from '@interlude/telemetry';
import { createInMemoryTracing } from '@interlude/telemetry/testing';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, expect, it } from 'vitest';
import { z } from 'zod';

const tracing = createInMemoryTracing();
afterEach(() => tracing.reset());

const hasResult = (request: RecordedModelRequest, callId: string) =>
  JSON.stringify(request.messages).includes(`"tool_use_id":"${callId}"`);

/** A model that calls `name` once, then ends. */
function model(id: string, name: string, args: unknown) {
  return scriptedProvider(
    Array.from(
      { length: 10 },
      () => (request: RecordedModelRequest) =>
        hasResult(request, id) ? { text: 'Done.' } : { toolCalls: [{ id, name, arguments: args }] },
    ),
  );
}

const spanId = (span: ReadableSpan) => span.spanContext().spanId;
const parentOf = (span: ReadableSpan | undefined) => span?.parentSpanContext?.spanId;

it('a nested pause draws each half as one trace over the tree: the delegated run under its delegating call', async () => {
  const runtime = createRuntime({ telemetry: openTelemetry({ tracerProvider: tracing.tracerProvider }) });
  const payOut = tool({
    name: 'pay_out',
    description: 'Pay out',
    input: z.object({}),
    run: (_input, ctx) => (ctx.answer === undefined ? InputRequest.confirm('Pay out $30?') : { paid: 30 }),
  });
  const payments = defineAgent({
    name: 'payments',
    runtime,
    provider: model('call_payout', 'pay_out', {}),
    actions: { pay: () => ({ message: 'Pay', tools: [payOut] }) },
  });
  const triage = defineAgent({
    name: 'triage',
    runtime,
    provider: model('call_pay', 'payments_pay', {}),
    actions: {
      handle: () => ({
        message: 'Triage',
        tools: [delegate(payments, 'pay', { description: 'Pay', onExceeded: 'pause' })],
      }),
    },
  });

  const halves: ReadableSpan[][] = [];
  const paused = await triage.handle().generateNow();
  halves.push(tracing.finishedSpans());
  tracing.reset();
  const done = await triage.handle().resumeNow({
    checkpoint: JSON.parse(JSON.stringify(paused.checkpoint)),
    answers: { 'call_pay/call_payout': true },
  });
  expect(done.status).toBe('completed');
  halves.push(tracing.finishedSpans());

  const roots: ReadableSpan[] = [];
  for (const spans of halves) {
    const find = (name: string) => spans.find((span) => span.name === name);
    const root = find('invoke_agent triage');
    const delegating = find('execute_tool payments_pay');
    const delegated = find('invoke_agent payments');
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);
    expect(parentOf(delegating)).toBe(root && spanId(root));
    expect(parentOf(delegated)).toBe(delegating && spanId(delegating));
    roots.push(root as ReadableSpan);
  }
  expect(roots[0]?.attributes['agent.awaiting_input']).toBe(true);
  // The resumed root links to the paused one, as any resume does.
  expect(roots[1]?.links.map((link) => link.context.spanId)).toContain(roots[0] && spanId(roots[0]));
  expect(tracing.openSpanNames()).toEqual([]);
  await runtime.close();
});
