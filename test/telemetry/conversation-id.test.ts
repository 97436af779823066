import { createRuntime, defineAgent, type GenerationResponse, rebuildCheckpoint, tool } from '@interlude/core';
import { createRefundScenario, scriptedProvider } from '@interlude/core/testing';
import { openTelemetry } from '@interlude/telemetry';
import { createInMemoryTracing } from '@interlude/telemetry/testing';
import { ATTR_GEN_AI_CONVERSATION_ID } from '@opentelemetry/semantic-conventions/incubating';
import { afterEach, expect, it } from 'vitest';
import { z } from 'zod';

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
  // The default is worked out again on resume: the checkpoint does not carry it.
  expect(paused.checkpoint).not.toHaveProperty('conversation_id');
});

it("keeps an inherited conversation across the pause: a generation started in a tool's run pauses, and its resume joins the caller's conversation", async () => {
  const scenario = createRefundScenario();
  const support = defineAgent({
    name: 'support_started_by_a_tool',
    runtime,
    provider: scriptedProvider(scenario.replies),
    actions: { handle: scenario.action },
  });
  let paused: GenerationResponse | undefined;
  const escalate = tool({
    name: 'escalate',
    description: 'Hand the ticket to support',
    input: z.object({}),
    async run() {
      paused = await support.handle({ ticketId: 42 }).generateNow();
      return { escalated: paused.generationId };
    },
  });
  const triage = defineAgent({
    name: 'triage',
    runtime,
    provider: scriptedProvider([
      { toolCalls: [{ id: 'call_escalate', name: 'escalate', arguments: {} }] },
      { text: 'Escalated.' },
    ]),
    conversationId: () => 'case-31',
    actions: { handle: () => ({ message: 'Ticket 42 is angry', tools: [escalate] }) },
  });
  await triage.handle().generateNow();
  // Signed into the checkpoint and rebuilt from the log alike, so whoever resumes it knows.
  expect(paused?.checkpoint?.conversation_id).toBe('case-31');
  const rebuilt = rebuildCheckpoint(await runtime.bus.events(paused!.generationId), {
    checkpointKey: runtime.keys,
    audience: await runtime.audience(),
  });
  expect(rebuilt).toEqual(paused?.checkpoint);
  tracing.reset();
  // Resumed outside any generation: its spans still join the conversation it started in.
  await support.handle({ ticketId: 42 }).resumeNow({ checkpoint: paused!.checkpoint, answers: { call_refund: true } });
  const spans = tracing.finishedSpans();
  expect(spans.map((span) => span.name)).toContain('execute_tool issue_refund');
  for (const span of spans)
    expect([span.name, span.attributes[ATTR_GEN_AI_CONVERSATION_ID]]).toEqual([span.name, 'case-31']);
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
