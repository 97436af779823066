import { z } from 'zod';
import { defineAgent } from '../agent/define-agent.js';
import type { Bus, Job } from '../bus/bus.js';
import type { GenerationResponse } from '../generation/generation-response.js';
import { InputRequest } from '../input-request/input-request.js';
import { createRuntime } from '../runtime/create-runtime.js';
import type { Runtime } from '../runtime/runtime.js';
import { scriptedProvider } from '../testing/scripted-provider.js';
import type { ToolContext } from '../tool/tool.js';
import { tool } from '../tool/tool.js';
import { signJob } from '../trust/sign-job.js';
import { resumeJobOf } from './harness.js';

/** A promise a test settles by hand: where a tool body stalls, as a SIGSTOPped worker would. */
export function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/**
 * The refund agent of the takeover tests, on any bus: the model answers from the conversation
 * (so any run, replayed or not, gets the right next step), `issue_refund` asks first and records
 * every run it makes, with what it saw, and can be made to stall inside its body.
 */
export function stallingRefundAgent(options: { bus?: Bus; idempotent?: boolean } = {}) {
  const runtime = createRuntime(options.bus ? { bus: options.bus } : {});
  const refunds: Array<Pick<ToolContext, 'answer' | 'idempotencyKey' | 'toolCallId'>> = [];
  const entered: Array<() => void> = [];
  let stall: Promise<void> | undefined;
  const model = scriptedProvider();
  let modelCalls = 0;
  const agentModel = {
    ...model,
    async call(request: Parameters<typeof model.call>[0], callOptions: Parameters<typeof model.call>[1]) {
      modelCalls += 1;
      const said = JSON.stringify(request.messages);
      model.push(
        said.includes('"tool_use_id":"call_refund"')
          ? { text: said.includes('declined by user') ? 'No refund, then.' : 'I refunded $30 on order 42.' }
          : {
              text: 'Let me check the order.',
              toolCalls: [
                { id: 'call_lookup', name: 'lookup_order', arguments: { order_id: 42 } },
                { id: 'call_refund', name: 'issue_refund', arguments: { order_id: 42, amount: 30 } },
              ],
            },
      );
      return model.call(request, callOptions);
    },
  };
  const agent = defineAgent({
    name: 'support',
    runtime,
    provider: agentModel,
    actions: {
      handle: ({ ticketId }: { ticketId: number }) => ({
        message: `Resolve support ticket ${ticketId}`,
        tools: [
          tool({
            name: 'lookup_order',
            description: 'Find an order',
            input: z.object({ order_id: z.number() }),
            idempotent: true,
            run: ({ order_id }) => ({ order_id, total: 120 }),
          }),
          tool({
            name: 'issue_refund',
            description: 'Refund part of an order',
            input: z.object({ order_id: z.number(), amount: z.number() }),
            ...(options.idempotent === true && { idempotent: true }),
            async run({ amount }, context) {
              if (context.answer === undefined) return InputRequest.confirm(`Refund $${amount}?`);
              for (const notify of entered.splice(0)) notify();
              const stalled = stall;
              stall = undefined;
              await stalled;
              refunds.push({
                answer: context.answer,
                idempotencyKey: context.idempotencyKey,
                toolCallId: context.toolCallId,
              });
              return { refunded: amount };
            },
          }),
        ],
      }),
    },
  });
  return {
    agent,
    runtime,
    refunds,
    get modelCalls() {
      return modelCalls;
    },
    /** The next refund body stalls until the returned gate opens. */
    stallNextRefund() {
      const held = gate();
      stall = held.opened;
      return held;
    },
    /** Resolves once a refund body is running. */
    refundEntered: () => new Promise<void>((resolve) => entered.push(resolve)),
  };
}

/** A resume job for a paused refund, signed as `resumeLater` would queue it. */
export function resumeJob(runtime: Runtime, paused: GenerationResponse, answers: Record<string, unknown>): Job {
  return signJob(resumeJobOf(paused, `job-${paused.generationId}`, { ticketId: 42 }, answers), runtime.keys);
}

/** A fresh generate job, signed as `generateLater` would queue it. */
export function generateJob(
  runtime: Runtime,
  generationId: string,
  agent = 'support',
  params: unknown = { ticketId: 42 },
): Job {
  const job: Job = {
    version: 1,
    id: `job-${generationId}`,
    kind: 'generate',
    agent,
    action: 'handle',
    params,
    generation_id: generationId,
  };
  return signJob(job, runtime.keys);
}

/** A delivery of a job, the way a queue hands it out. */
export function delivery(attempt: number) {
  return { attempt, headers: {}, maxAttempts: 5 };
}
