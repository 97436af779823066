import { createRuntime, defineAgent } from '@interlude/core';
import { createRefundScenario, scriptedProvider } from '@interlude/core/testing';
import { openTelemetry } from '@interlude/telemetry';
import { createInMemoryTracing } from '@interlude/telemetry/testing';
import { ATTR_GEN_AI_CONVERSATION_ID } from '@opentelemetry/semantic-conventions/incubating';
import { afterEach, expect, it } from 'vitest';

const tracing = createInMemoryTracing();
afterEach(() => tracing.reset());
const runtime = createRuntime({ telemetry: openTelemetry({ tracerProvider: tracing.tracerProvider }) });

it('is the generation id on every span of both runs when the agent names no conversation', async () => {
  const scenario = createRefundScenario();
  const support = defineAgent({
    name: 'support_unnamed_conversation',
    runtime,
    provider: scriptedProvider(scenario.replies),
    actions: { handle: scenario.action },
  });
  const paused = await support.handle({ ticketId: 42 }).generateNow();
  await support.handle({ ticketId: 42 }).resumeNow({ checkpoint: paused.checkpoint, answers: { call_refund: true } });
  const spans = tracing.finishedSpans();
  expect(spans.length).toBeGreaterThanOrEqual(6);
  for (const span of spans) expect(span.attributes[ATTR_GEN_AI_CONVERSATION_ID]).toBe(paused.generationId);
});

it('refuses a conversationId that is not a function, and a run whose conversationId returns no string, before it runs', async () => {
  const scenario = createRefundScenario();
  expect(() =>
    defineAgent({
      name: 'support_bad_conversation',
      runtime,
      provider: scriptedProvider(scenario.replies),
      actions: { handle: scenario.action },
      conversationId: 'ticket-42' as never,
    }),
  ).toThrow(expect.objectContaining({ code: 'invalid_conversation_id' }));
  const empty = defineAgent({
    name: 'support_empty_conversation',
    runtime,
    provider: scriptedProvider(scenario.replies),
    actions: { handle: scenario.action },
    conversationId: () => '',
  });
  await expect(empty.handle({ ticketId: 42 }).generateNow()).rejects.toMatchObject({ code: 'invalid_conversation_id' });
  expect(tracing.finishedSpans()).toEqual([]);
});
