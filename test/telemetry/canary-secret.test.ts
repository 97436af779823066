import { createRuntime, defineAgent, InputRequest, tool } from '@interlude/core';
import { scriptedProvider } from '@interlude/core/testing';
import { openTelemetry } from '@interlude/telemetry';
import { createInMemoryTracing } from '@interlude/telemetry/testing';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { expect, it } from 'vitest';
import { z } from 'zod';

const CANARY = 'canary-7f3a9c-pin-4921';

/** Everything of a span a backend stores and shows: attributes, events, status, links. */
function everythingRecorded(spans: readonly ReadableSpan[]): string {
  return JSON.stringify(
    spans.map((span) => ({
      name: span.name,
      attributes: span.attributes,
      events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })),
      status: span.status,
      links: span.links.map((link) => link.attributes),
    })),
  );
}

it('never records a secret answer: not in tool results, arguments, messages, errors or statuses', async () => {
  const tracing = createInMemoryTracing();
  let pin: string | undefined;
  const verifyIdentity = tool({
    name: 'verify_identity',
    description: 'Checks the customer PIN',
    input: z.object({ customer_id: z.number() }),
    run: (_input, context) => {
      if (context.answer === undefined) return InputRequest.secret('Customer PIN?');
      pin = String(context.answer);
      return { verified: true, checked: `PIN ${pin}` };
    },
  });
  const chargeCard = tool({
    name: 'charge_card',
    description: 'Charges the card on file',
    input: z.object({ note: z.string() }),
    run: () => {
      throw new Error(`card declined for PIN ${pin}`);
    },
  });
  const provider = scriptedProvider([
    { toolCalls: [{ id: 'call_verify', name: 'verify_identity', arguments: { customer_id: 7 } }] },
    // A model that repeats what the customer typed into the chat: the arguments carry the secret.
    { toolCalls: [{ id: 'call_charge', name: 'charge_card', arguments: { note: `customer said ${CANARY}` } }] },
    () => {
      throw new Error(`upstream rejected a prompt containing ${CANARY}`);
    },
  ]);
  const runtime = createRuntime({
    telemetry: openTelemetry({ tracerProvider: tracing.tracerProvider, captureContent: true, openInference: true }),
  });
  const support = defineAgent({
    name: 'support',
    runtime,
    provider,
    actions: {
      handle: ({ customerId }: { customerId: number }) => ({
        message: `Charge customer ${customerId}`,
        tools: [verifyIdentity, chargeCard],
      }),
    },
  });

  const paused = await support.handle({ customerId: 7 }).generateNow();
  await expect(
    support.handle({ customerId: 7 }).resumeNow({ checkpoint: paused.checkpoint, answers: { call_verify: CANARY } }),
  ).rejects.toThrow('[FILTERED]');

  expect(pin).toBe(CANARY);
  const spans = tracing.finishedSpans();
  const recorded = everythingRecorded(spans);
  // The paths that could leak were all taken and recorded…
  expect(spans.map((span) => span.name)).toEqual(
    expect.arrayContaining(['execute_tool verify_identity', 'execute_tool charge_card', 'chat scripted-1']),
  );
  expect(recorded).toContain('"gen_ai.tool.call.result":"{\\"verified\\":true,\\"checked\\":\\"PIN [FILTERED]\\"}"');
  expect(recorded).toContain('card declined for PIN [FILTERED]');
  expect(recorded).toContain('upstream rejected a prompt containing [FILTERED]');
  // The conversation, as GenAI messages and as OpenInference's, holds the tool result that read the PIN.
  const chats = spans.filter((span) => span.name === 'chat scripted-1');
  const lastRequest = String(chats.at(-1)!.attributes['gen_ai.input.messages']);
  expect(lastRequest).toContain('PIN [FILTERED]');
  expect(lastRequest).toContain('customer said [FILTERED]');
  expect(recorded).toContain('llm.input_messages.');
  // …and the secret is in none of them.
  expect(recorded).not.toContain(CANARY);
  expect(recorded).not.toContain('4921');
  expect(tracing.openSpanNames()).toEqual([]);
});
