import { defineAgent, InputRequest, type Runtime, tool } from '@interlude/core';
import { scriptedProvider } from '@interlude/core/testing';
import { z } from 'zod';

/**
 * What one generation of a schedule asks, carried in its params so a worker process builds the
 * same question: a dangerous pause a person declines, or a harmless one they approve; its
 * deadline and what the deadline answers; whether the tool is idempotent; one pause or two.
 */
export interface GenerationVariant {
  dangerous: boolean;
  expiresInMs?: number;
  /** What the deadline answers: declining, or approving (harmless questions only). */
  onExpiry?: 'decline' | 'approve';
  idempotent: boolean;
  pauses: 1 | 2;
}

export interface ExplorerParams {
  ticket: number;
  variant: GenerationVariant;
}

/** The real question of a dangerous pause, and the label a forger would rather it had. */
export const DANGEROUS_PROMPT = 'Refund $5000 to mallory-offshore?';
export const HARMLESS_PROMPT = 'Send the customer a $1 goodwill coupon?';

/** What a person decides on reading a question: yes to the coupon, no to anything else. */
export function personApproves(prompt: string): boolean {
  return prompt === HARMLESS_PROMPT;
}

/** Where the explorer's tool bodies report, in this process or another. */
export interface BodyLedger {
  /** Called as a body with an approval starts its side effect. */
  bodyRan(generationId: string, toolCallId: string): void | Promise<void>;
  /** Called inside the body, before the side effect (a probe, or the point a worker stalls at). */
  insideBody?(generationId: string, toolCallId: string): Promise<void>;
}

const callId = (pause: number) => `call_pay_${pause}`;

/**
 * The explorer's agent `desk.handle`: the model calls `pay` once per pause (`call_pay_1`, then
 * `call_pay_2` when the variant pauses twice) and ends with text. `pay` asks its question on the
 * first run and, answered `true`, reports to the ledger; declined, it does nothing.
 */
export function defineExplorerAgent(runtime: Runtime, ledger: BodyLedger) {
  const pay = (variant: GenerationVariant) =>
    tool({
      name: 'pay',
      description: 'Pay out what the ticket asks for',
      input: z.object({ pause: z.number() }),
      ...(variant.idempotent && { idempotent: true }),
      async run(_input, ctx) {
        if (ctx.answer === undefined) {
          const prompt = variant.dangerous ? DANGEROUS_PROMPT : HARMLESS_PROMPT;
          return InputRequest.confirm(prompt, expiryOf(variant));
        }
        if (ctx.answer !== true) return { paid: false };
        await ledger.insideBody?.(ctx.generationId, ctx.toolCallId);
        await ledger.bodyRan(ctx.generationId, ctx.toolCallId);
        return { paid: true };
      },
    });
  return defineAgent({
    name: 'desk',
    runtime,
    provider: scriptedProvider(Array.from({ length: 1_000 }, () => reply)),
    actions: {
      handle: ({ ticket, variant }: ExplorerParams) => ({
        message: `Handle ticket ${ticket}; pauses: ${variant.pauses}`,
        tools: [pay(variant)],
      }),
    },
  });
}

function expiryOf(variant: GenerationVariant) {
  if (variant.expiresInMs === undefined) return {};
  return {
    expiresIn: variant.expiresInMs,
    onExpiry: variant.onExpiry === 'approve' ? { answer: true } : ('decline' as const),
  };
}

/** The model: one `pay` call per pause the params ask for, then a closing text. */
function reply(request: { messages: unknown[] }) {
  const text = JSON.stringify(request.messages);
  const pauses = text.includes('pauses: 2') ? 2 : 1;
  const results = (text.match(/tool_result/g) ?? []).length;
  if (results < pauses) {
    return { toolCalls: [{ id: callId(results + 1), name: 'pay', arguments: { pause: results + 1 } }] };
  }
  return { text: 'Handled.' };
}
