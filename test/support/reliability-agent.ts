import { defineAgent, InputRequest, type ProviderAdapter, type Runtime, tool } from '@interlude/core';
import type { AgentBase } from '@interlude/core/internal';
import { type RecordedModelRequest, type ScriptedReply, scriptedProvider } from '@interlude/core/testing';
import { z } from 'zod';
import type { Ledger } from './reliability-ledger.js';

/** The secret answer every reliability test gives; it must never leave the tool that asked. */
export const CANARY = 'canary-5f17e2-pin-90210';

/** Where a worker can be killed in a generation: before the refund runs, after it, before the job's ack. */
export type CrashPoint = 'before_tool' | 'after_tool' | 'before_ack';

/** The params of the `handle` action: `verify` adds a secret question to the paused turn. */
export interface TicketParams {
  ticketId: number;
  verify?: boolean;
}

export interface ReliabilityAgentOptions {
  ledger: Ledger;
  /** Called at the in-generation crash points with the ticket; a worker stalls there to be killed. */
  atCrashPoint?: (point: Exclude<CrashPoint, 'before_ack'>, ticketId: number) => Promise<void>;
  /** Wait this long before each model answer, so generations overlap in time. */
  modelDelayMs?: number;
  /** A real adapter instead of the conversation-driven scripted model (its wire is checked by the test). */
  provider?: ProviderAdapter;
  /**
   * Declares `issue_refund` idempotent: it may run again after an unknown outcome, and applies
   * the refund once per `ctx.idempotencyKey` (the ledger's `applied` table), as a payment API would.
   */
  refundIdempotent?: boolean;
}

function conversation(request: RecordedModelRequest): string {
  return JSON.stringify(request.messages);
}

/**
 * A model that answers from the conversation, so any process can take any step: first it asks
 * `lookup_order` and `issue_refund` (and `verify_identity` when the ticket says so) in one turn,
 * then, once the refund's result is in, it concludes. Every request is checked for the canary
 * and a leak is written to the ledger, where the test sees it whichever process sent it.
 */
function ticketModel(options: ReliabilityAgentOptions): ProviderAdapter {
  const scripted = scriptedProvider();
  const respond = (request: RecordedModelRequest): ScriptedReply => {
    if (conversation(request).includes('"tool_use_id":"call_refund"')) return { text: 'I refunded $30 on order 42.' };
    const verify = conversation(request).includes('(verify identity)');
    return {
      text: 'Let me check the order.',
      toolCalls: [
        { id: 'call_lookup', name: 'lookup_order', arguments: { order_id: 42 } },
        { id: 'call_refund', name: 'issue_refund', arguments: { order_id: 42, amount: 30 } },
        ...(verify ? [{ id: 'call_pin', name: 'verify_identity', arguments: { customer_id: 7 } }] : []),
      ],
    };
  };
  return {
    ...scripted,
    async call(request, callOptions) {
      if (options.modelDelayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, options.modelDelayMs));
      const sent = JSON.stringify([request.instructions, request.messages, request.tools]);
      const ticket = Number(/support ticket (\d+)/.exec(sent)?.[1] ?? -1);
      if (sent.includes(CANARY)) {
        await options.ledger.record({ generation_id: `ticket ${ticket}`, tool: 'LEAK', tool_call_id: 'model request' });
      }
      if (sent.includes('"tool_use_id":"call_refund"')) await options.atCrashPoint?.('after_tool', ticket);
      scripted.push(respond);
      const response = await scripted.call(request, callOptions);
      // Requests are checked above; keeping them would grow without bound in a long-lived worker.
      scripted.requests.length = 0;
      return response;
    },
  };
}

/**
 * The `support` agent every reliability test runs, in the test process and in workers alike: a
 * resume rebuilds its tools from the action, so both sides define it the same way. Each tool's
 * side effect is a row in the PostgreSQL ledger; `verify_identity` asks for a secret and echoes it
 * in its result, so scrubbing is exercised on every path that result takes.
 */
export function defineReliabilityAgent(runtime: Runtime, options: ReliabilityAgentOptions): AgentBase {
  const record = (tool: string, context: { toolCallId: string; generationId: string }) =>
    options.ledger.record({ generation_id: context.generationId, tool, tool_call_id: context.toolCallId });
  const toolsFor = (ticketId: number) => [
    tool({
      name: 'lookup_order',
      description: 'Find an order by id',
      input: z.object({ order_id: z.number() }),
      async run({ order_id }, context) {
        await record('lookup_order', context);
        return { order_id, total: 120, status: 'delivered' };
      },
    }),
    tool({
      name: 'issue_refund',
      description: 'Refund part of an order',
      input: z.object({ order_id: z.number(), amount: z.number() }),
      idempotent: options.refundIdempotent === true,
      async run({ order_id, amount }, context) {
        if (context.answer === undefined) return InputRequest.confirm(`Refund $${amount} on order ${order_id}?`);
        await options.atCrashPoint?.('before_tool', ticketId);
        await record('issue_refund', context);
        if (options.refundIdempotent === true) await options.ledger.applyOnce(context.idempotencyKey);
        return { refunded: amount };
      },
    }),
    tool({
      name: 'verify_identity',
      description: 'Check the customer PIN',
      input: z.object({ customer_id: z.number() }),
      async run(_input, context) {
        if (context.answer === undefined) return InputRequest.secret('Customer PIN?');
        await record('verify_identity', context);
        return { verified: true, checked: `PIN ${String(context.answer)}` };
      },
    }),
  ];
  return defineAgent({
    name: 'support',
    runtime,
    provider: options.provider ?? ticketModel(options),
    actions: {
      handle: ({ ticketId, verify }: TicketParams) => ({
        message: `Resolve support ticket ${ticketId}${verify === true ? ' (verify identity)' : ''}`,
        tools: toolsFor(ticketId),
      }),
    },
  });
}
