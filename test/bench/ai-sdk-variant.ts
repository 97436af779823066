import { createOpenAI } from '@ai-sdk/openai';
import { generateText, type ModelMessage, stepCountIs, type ToolApprovalRequestOutput, tool } from 'ai';
import type { CycleVariant } from './cycle-variants.js';
import { expectBareCycle } from './expect-bare-cycle.js';
import { ticketMessage } from './refund-chat-responder.js';
import { createRefundWork, issueRefundInput, lookupOrderInput, SUPPORT_INSTRUCTIONS } from './refund-work.js';

/**
 * A peer: the refund scenario as the Vercel AI SDK (7) documents human approval. `issue_refund`
 * has `needsApproval`, so `generateText` runs `lookup_order`, stops with a tool approval request,
 * and the paused state is the conversation so far (`JSON.stringify` of its messages). The resume
 * parses it, appends the approval and calls `generateText` again, which runs the refund and asks
 * the model for the final answer. Same wire server and checks as every other variant.
 */
export function aiSdkVariant(baseURL: string): CycleVariant {
  const work = createRefundWork();
  const model = createOpenAI({ baseURL, apiKey: 'bench' }).chat('gpt-4.1-bench');
  const tools = {
    lookup_order: tool({
      description: 'Find an order by id',
      inputSchema: lookupOrderInput,
      execute: async (input) => work.lookupOrder(input),
    }),
    issue_refund: tool({
      description: 'Refund part of an order',
      inputSchema: issueRefundInput,
      needsApproval: true,
      execute: async (input) => work.issueRefund(input),
    }),
  };
  const settings = { model, system: SUPPORT_INSTRUCTIONS, tools, stopWhen: stepCountIs(5), maxRetries: 0 };
  const name = 'Vercel AI SDK 7';
  const variant: CycleVariant = {
    name,
    pausedBytes: 0,
    async cycle(ticketId) {
      const before = { ...work.runs };
      const messages: ModelMessage[] = [{ role: 'user', content: ticketMessage(ticketId) }];
      const paused = await generateText({ ...settings, messages });
      const approval = paused.content.find(
        (part): part is ToolApprovalRequestOutput<typeof tools> => part.type === 'tool-approval-request',
      );
      const refund = approval?.toolCall.input as { order_id: number; amount: number } | undefined;
      const prompt = refund === undefined ? '' : `Refund $${refund.amount} on order ${refund.order_id}?`;
      const saved = JSON.stringify([...messages, ...paused.response.messages]);
      variant.pausedBytes = Buffer.byteLength(saved);

      const resumed = JSON.parse(saved) as ModelMessage[];
      resumed.push({
        role: 'tool',
        content: [{ type: 'tool-approval-response', approvalId: approval?.approvalId ?? '', approved: true }],
      });
      const done = await generateText({ ...settings, messages: resumed });
      expectBareCycle(name, work, before, { prompt, text: done.text });
    },
    async close() {},
  };
  return variant;
}
