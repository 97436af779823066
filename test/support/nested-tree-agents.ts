import { appendFileSync } from 'node:fs';
import { defineAgent, delegate, InputRequest, type Runtime, tool } from '@interlude/core';
import type { AgentBase } from '@interlude/core/internal';
import { type RecordedModelRequest, scriptedProvider } from '@interlude/core/testing';
import { z } from 'zod';
import type { SideEffect } from './bus-refund-agent.js';

/** The tree-unique id of the question the deepest agent asks (see `defineNestedTree`). */
export const DEEP_QUESTION = 'call_refunds/call_pay/call_payout';

const hasResult = (request: RecordedModelRequest, callId: string) =>
  JSON.stringify(request.messages).includes(`"tool_use_id":"${callId}"`);

/** A model that makes `calls` in one turn, then ends with `text`: any process can take any step. */
function model(
  calls: { id: string; name: string; arguments: unknown }[],
  text: (request: RecordedModelRequest) => string,
) {
  const last = calls.at(-1)?.id as string;
  return scriptedProvider(
    Array.from(
      { length: 100 },
      () => (request: RecordedModelRequest) =>
        hasResult(request, last) ? { text: text(request) } : { toolCalls: calls },
    ),
  );
}

/**
 * triage → refunds → payments for cross-process tests, every delegation under `onExceeded:
 * 'pause'`: payments confirms before it pays, so the question is asked three levels down and
 * paused at the root. Every tool body appends a line to `sideEffectsFile`; agent names carry
 * `prefix`, so a test's deadlines, queues and pending entries are its own.
 */
export function defineNestedTree(runtime: Runtime, options: { prefix: string; sideEffectsFile: string }): AgentBase {
  const record = (name: string, generationId: string) => {
    const line: SideEffect = { tool: name, pid: process.pid, generation_id: generationId };
    appendFileSync(options.sideEffectsFile, `${JSON.stringify(line)}\n`);
  };
  const payOut = tool({
    name: 'pay_out',
    description: 'Pay money out',
    input: z.object({ amount: z.number() }),
    run({ amount }, ctx) {
      if (ctx.answer === undefined) return InputRequest.confirm(`Pay out $${amount}?`);
      record('pay_out', ctx.generationId);
      return { paid: amount };
    },
  });
  const payments = defineAgent({
    name: `${options.prefix}-payments`,
    runtime,
    provider: model([{ id: 'call_payout', name: 'pay_out', arguments: { amount: 30 } }], () => 'Paid $30.'),
    actions: { pay: ({ amount }: { amount: number }) => ({ message: `Pay $${amount}`, tools: [payOut] }) },
  });
  const lookupOrder = tool({
    name: 'lookup_order',
    description: 'Find an order',
    input: z.object({ order_id: z.number() }),
    run: ({ order_id }, ctx) => {
      record('lookup_order', ctx.generationId);
      return { order_id, total: 120 };
    },
  });
  const refunds = defineAgent({
    name: `${options.prefix}-refunds`,
    runtime,
    provider: model(
      [
        { id: 'call_lookup', name: 'lookup_order', arguments: { order_id: 42 } },
        { id: 'call_pay', name: 'payments_pay', arguments: { amount: 30 } },
      ],
      (request) => `Refunded: ${JSON.stringify(request.messages.at(-1))}`,
    ),
    actions: {
      handle: () => ({
        message: 'Refund order 42',
        tools: [
          lookupOrder,
          delegate(payments, 'pay', {
            name: 'payments_pay',
            description: 'Pay out',
            input: z.object({ amount: z.number() }),
            onExceeded: 'pause',
          }),
        ],
      }),
    },
  });
  const addNote = tool({
    name: 'add_note',
    description: 'Note on the ticket',
    input: z.object({}),
    run: (_input, ctx) => {
      record('add_note', ctx.generationId);
      return { noted: true };
    },
  });
  return defineAgent({
    name: `${options.prefix}-triage`,
    runtime,
    provider: model(
      [
        { id: 'call_note', name: 'add_note', arguments: {} },
        { id: 'call_refunds', name: 'refunds_handle', arguments: {} },
      ],
      (request) => `Triage done: ${JSON.stringify(request.messages.at(-1))}`,
    ),
    actions: {
      handle: () => ({
        message: 'Triage ticket 42',
        tools: [
          addNote,
          delegate(refunds, 'handle', { name: 'refunds_handle', description: 'Ask refunds', onExceeded: 'pause' }),
        ],
      }),
    },
  });
}
