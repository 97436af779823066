import { createOpenAI } from '@ai-sdk/openai';
import {
  type ContentPart,
  generateText,
  type ModelMessage,
  stepCountIs,
  streamText,
  type ToolApprovalRequestOutput,
  type ToolSet,
  tool,
} from 'ai';
import { type CycleVariant, timedBuild } from './cycle-variants.js';
import { expectBareCycle } from './expect-bare-cycle.js';
import { ticketMessage } from './refund-chat-responder.js';
import {
  createRefundWork,
  issueRefundInput,
  lookupOrderInput,
  type RefundWork,
  SUPPORT_INSTRUCTIONS,
} from './refund-work.js';
import { expectScenario } from './scenario-error.js';

/** What one call (`generateText`, or `streamText` read to the end) gave the cycle. */
interface AiSdkCall<TOOLS extends ToolSet> {
  content: ContentPart<TOOLS>[];
  responseMessages: ModelMessage[];
  text: string;
}

/**
 * A peer: the refund scenario as the Vercel AI SDK (7) documents human approval. `issue_refund`
 * has `needsApproval`, so `generateText` runs `lookup_order`, stops with a tool approval request,
 * and the paused state is the conversation so far (`JSON.stringify` of its messages). The resume
 * parses it, appends the approval and calls `generateText` again, which runs the refund and asks
 * the model for the final answer. Same wire server and checks as every other variant. With
 * `streamed`, both calls are `streamText` and the caller reads its `stream` to the end (the
 * text deltas must add up to the final text) before taking the content and messages.
 */
export function aiSdkVariant(
  baseURL: string,
  { streamed = false, fresh = false }: { streamed?: boolean; fresh?: boolean } = {},
): CycleVariant {
  const work = createRefundWork();
  const build = () => buildAiSdkRefund(baseURL, work);
  const builtOnce = build();
  // Fresh: a provider and tools built for the pause and again for the resume, as two processes would.
  const settingsFor = () => {
    const { model, tools } = fresh ? timedBuild(variant, build) : builtOnce;
    return { model, system: SUPPORT_INSTRUCTIONS, tools, stopWhen: stepCountIs(5), maxRetries: 0 };
  };
  type Tools = ReturnType<typeof refundTools>;
  const name = `Vercel AI SDK 7${streamed ? ', streamText' : ''}${fresh ? ', fresh' : ''}`;
  const call = async (messages: ModelMessage[]): Promise<AiSdkCall<Tools>> => {
    const settings = settingsFor();
    if (!streamed) {
      const result = await generateText({ ...settings, messages });
      return { content: result.content, responseMessages: result.response.messages, text: result.text };
    }
    const result = streamText({ ...settings, messages });
    let streamedText = '';
    for await (const part of result.stream) {
      if (part.type === 'text-delta') streamedText += part.text;
      else if (part.type === 'error') throw part.error;
    }
    const text = await result.text;
    expectScenario(streamedText.endsWith(text), `${name}: streamed ${JSON.stringify(streamedText)}, answered ${text}`);
    return { content: await result.content, responseMessages: await result.responseMessages, text };
  };
  const variant: CycleVariant = {
    name,
    pausedBytes: 0,
    async cycle(ticketId) {
      const before = { ...work.runs };
      const messages: ModelMessage[] = [{ role: 'user', content: ticketMessage(ticketId) }];
      const paused = await call(messages);
      const approval = paused.content.find(
        (part): part is ToolApprovalRequestOutput<Tools> => part.type === 'tool-approval-request',
      );
      const refund = approval?.toolCall.input as { order_id: number; amount: number } | undefined;
      const prompt = refund === undefined ? '' : `Refund $${refund.amount} on order ${refund.order_id}?`;
      const saved = JSON.stringify([...messages, ...paused.responseMessages]);
      variant.pausedBytes = Buffer.byteLength(saved);

      const resumed = JSON.parse(saved) as ModelMessage[];
      resumed.push({
        role: 'tool',
        content: [{ type: 'tool-approval-response', approvalId: approval?.approvalId ?? '', approved: true }],
      });
      const done = await call(resumed);
      expectBareCycle(name, work, before, { prompt, text: done.text });
    },
    async close() {},
  };
  return variant;
}

/** What a process builds to run the refund scenario on the AI SDK: the provider's model and the tools. */
export function buildAiSdkRefund(baseURL: string, work: RefundWork) {
  return { model: createOpenAI({ baseURL, apiKey: 'bench' }).chat('gpt-4.1-bench'), tools: refundTools(work) };
}

/** The refund tools as the AI SDK documents them: `issue_refund` waits for an approval. */
function refundTools(work: RefundWork) {
  return {
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
}
