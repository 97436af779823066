import type { GenerationSuiteWire } from './adapter-generation-suite.js';
import type { OpenAIFixtures } from './openai-fixtures.js';

/**
 * The generation-suite wire of an OpenAI adapter: Chat and Responses recorded the same support
 * desk under the same fixture names, call ids and texts, so only the endpoint and the folder
 * (with its stream framing) differ.
 *
 * @example
 * describeAdapterGenerationSuite({ name: 'openaiChat', build, wire: createOpenAIGenerationWire(fixtures, '/v1/chat/completions'), checks });
 */
export function createOpenAIGenerationWire(fixtures: OpenAIFixtures, path: string): GenerationSuiteWire {
  return {
    path,
    reply: (name, stream) => fixtures.reply(name, stream),
    refundCalls: 'refund-tool-calls',
    closeCall: 'close-account-tool-call',
    refundDone: 'refund-final-text',
    refundDeclined: 'declined-final-text',
    closeDone: 'closed-final-text',
    ids: { lookup: 'call_lookup_1', refund: 'call_refund_1', close: 'call_close_1' },
    refundedText: 'I refunded $25 on order 42.',
    closedText: 'Order 42 is refunded and account 7 is closed.',
  };
}
