import { type Checkpoint, createRuntime, defineAgent, InputRequest, type Tool, tool } from '@interlude/core';
import { createMemoryBus } from '@interlude/core/internal';
import { forgetProcessClaimLogs, type ScriptedProvider, scriptedProvider } from '@interlude/core/testing';
import { z } from 'zod';

/** One run of a tool body: what it was called with and whether that fits the tool's schema. */
export interface ToolRun {
  tool: string;
  toolCallId: string;
  input: unknown;
  validInput: boolean;
}

/** The calls the model makes in the paused turn, one per kind of question plus a gated tool. */
export const HOSTILE_TURN = [
  { id: 'call_lookup', name: 'lookup_order', arguments: { order_id: 42 } },
  { id: 'call_refund', name: 'issue_refund', arguments: { order_id: 42, amount: 30 } },
  { id: 'call_shipping', name: 'pick_shipping', arguments: { order_id: 42 } },
  { id: 'call_note', name: 'add_note', arguments: { order_id: 42 } },
  { id: 'call_pin', name: 'verify_identity', arguments: { customer_id: 7 } },
  { id: 'call_close', name: 'close_account', arguments: { customer_id: 7 } },
] as const;

/** Answers that fit every question of the paused turn. */
export const VALID_ANSWERS = {
  call_refund: true,
  call_shipping: 'air',
  call_note: 'fragile',
  call_pin: 'pin-2718',
  call_close: true,
} as const;

/**
 * A support desk whose paused turn holds every kind of question (confirm, choice, text with a
 * JSON Schema, secret, an approval gate) beside a completed call, on its own in-memory runtime,
 * so a property test can build thousands of them cheaply. Every tool body records its input and
 * whether that input fits the tool's schema: the framework must never run a body with bad input.
 * Each desk stands for a process of its own: the claims of the desks before it are forgotten, so
 * one paused checkpoint can be resumed afresh on every desk.
 */
export function createHostileDesk(options: { checkpointKey?: string | false; resuming?: boolean } = {}) {
  forgetProcessClaimLogs();
  const runs: ToolRun[] = [];
  const tracked = <Schema extends z.ZodType>(
    name: string,
    input: Schema,
    body: (value: z.output<Schema>, answer: unknown) => unknown,
  ): Tool<z.output<Schema>> =>
    tool({
      name,
      description: `The ${name} tool`,
      input,
      run(value, context) {
        runs.push({
          tool: name,
          toolCallId: context.toolCallId,
          input: value,
          validInput: input.safeParse(value).success,
        });
        return body(value, context.answer);
      },
    });
  const order = z.object({ order_id: z.number() });
  const customer = z.object({ customer_id: z.number() });
  const tools = [
    tracked('lookup_order', order, ({ order_id }) => ({ order_id, total: 120 })),
    tracked('issue_refund', z.object({ order_id: z.number(), amount: z.number() }), ({ amount }, answer) =>
      answer === undefined ? InputRequest.confirm(`Refund $${amount}?`) : { refunded: amount },
    ),
    tracked('pick_shipping', order, (_value, answer) =>
      answer === undefined
        ? InputRequest.choice('Which shipping?', { options: ['ground', 'air', { value: 2, label: 'Two-day' }] })
        : { shipping: answer },
    ),
    tracked('add_note', order, (_value, answer) =>
      answer === undefined
        ? InputRequest.text('Note for the courier?', { schema: { type: 'string', maxLength: 20 } })
        : { noted: answer },
    ),
    tracked('verify_identity', customer, (_value, answer) =>
      answer === undefined ? InputRequest.secret('Customer PIN?') : { verified: true, pin: answer },
    ),
    tracked('close_account', customer, ({ customer_id }) => ({ closed: customer_id })),
  ];
  // A desk built to resume answers every model call with text; a fresh one first asks the turn.
  const provider: ScriptedProvider = scriptedProvider([
    ...(options.resuming === true ? [] : [{ toolCalls: HOSTILE_TURN.map((call) => ({ ...call })) }]),
    ...Array.from({ length: 3 }, () => ({ text: 'Done.' })),
  ]);
  const runtime = createRuntime({
    bus: createMemoryBus(),
    ...(options.checkpointKey !== undefined && { checkpointKey: options.checkpointKey }),
  });
  const agent = defineAgent({
    name: 'support',
    runtime,
    provider,
    actions: {
      handle: ({ ticketId }: { ticketId: number }) => ({
        message: `Resolve support ticket ${ticketId}`,
        tools,
        requiresApproval: ['close_account'],
      }),
    },
  });
  return { agent, provider, runtime, runs };
}

/** The paused checkpoint of a fresh desk, as plain JSON (the way it comes back from a database). */
export async function pausedHostileCheckpoint(checkpointKey?: string | false): Promise<Checkpoint> {
  const desk = createHostileDesk(checkpointKey === undefined ? {} : { checkpointKey });
  const paused = await desk.agent.handle({ ticketId: 42 }).generateNow();
  if (paused.checkpoint === undefined) throw new Error('the hostile desk did not pause');
  return JSON.parse(JSON.stringify(paused.checkpoint)) as Checkpoint;
}
