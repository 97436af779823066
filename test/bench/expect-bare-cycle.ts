import { FINAL_TEXT } from './refund-chat-responder.js';
import { REFUND_PROMPT, type RefundWork } from './refund-work.js';
import { expectScenario } from './scenario-error.js';

/** The tool ran exactly once more than before the cycle. */
export function expectOneMore(
  work: RefundWork,
  before: RefundWork['runs'],
  tool: keyof RefundWork['runs'],
  when: string,
): void {
  const ran = work.runs[tool] - before[tool];
  expectScenario(ran === 1, `${tool} ran ${ran} times ${when}, expected once`);
}

/** A hand-written cycle asked the refund question, answered right and ran each tool once. */
export function expectBareCycle(
  name: string,
  work: RefundWork,
  before: RefundWork['runs'],
  result: { prompt: string; text: string },
): void {
  expectScenario(result.prompt === REFUND_PROMPT, `${name}: asked ${JSON.stringify(result.prompt)}`);
  expectScenario(result.text === FINAL_TEXT, `${name}: answered ${JSON.stringify(result.text)}`);
  expectOneMore(work, before, 'lookup_order', `in a ${name} cycle`);
  expectOneMore(work, before, 'issue_refund', `in a ${name} cycle`);
}
