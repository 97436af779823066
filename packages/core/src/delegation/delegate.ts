import { z } from 'zod';
import type { AgentBase } from '../agent/agent-types.js';
import { InputRequiredError } from '../errors/input-required-error.js';
import { GenerationRunner } from '../generation/generation.js';
import type { InputExpiryOptions } from '../input-request/input-expiry.js';
import type { ApprovalRule } from '../tool/approval-rule.js';
import { type Tool, tool } from '../tool/tool.js';

export interface DelegateOptions<Schema extends z.ZodType> {
  /** The tool's name; `<agent>_<action>` by default. */
  name?: string;
  description: string;
  /** The arguments the model passes, handed to the action as its params. Any object by default. */
  input?: Schema;
  /**
   * What happens when the delegated agent asks a question it cannot ask from here: `'return'`
   * (default) gives the calling model `{ "error": "input_required", "questions": [...] }`;
   * `'raise'` stops the calling generation with `InputRequiredError`.
   */
  onExceeded?: 'return' | 'raise';
  /**
   * The delegation's own approval gate, as `tool({ requiresApproval })` takes it: `true` (every
   * delegation waits for a person) or a rule on the model's arguments, `{ when, prompt }`. An
   * action's `requiresApproval` entry for this tool replaces it.
   */
  requiresApproval?: boolean | ApprovalRule<z.output<Schema>>;
  /** When the gate's question stops waiting, and with what outcome (`tool({ approvalExpiry })`). */
  approvalExpiry?: InputExpiryOptions;
}

const anyParams = z.record(z.string(), z.unknown());

/**
 * A tool that runs another agent's action as a nested generation. The delegated agent cannot
 * pause: its questions come back to the calling model (or raise), its pause is neither published
 * nor passed to its `onInputRequest` callbacks, and it never reads the caller's answers.
 *
 * @example
 *   const askBilling = delegate(billing, 'refund', { description: 'Ask the billing agent to refund' });
 */
export function delegate<Schema extends z.ZodType = typeof anyParams>(
  agent: AgentBase,
  action: string,
  options: DelegateOptions<Schema>,
): Tool<z.output<Schema>> {
  if (agent.actions[action] === undefined)
    throw new TypeError(`Agent ${agent.name} has no action ${action} to delegate to`);
  const name = options.name ?? `${agent.name}_${action}`;
  const onExceeded = options.onExceeded ?? 'return';
  if (onExceeded !== 'return' && onExceeded !== 'raise') throw new TypeError(`onExceeded must be 'return' or 'raise'`);
  return tool({
    name,
    description: options.description,
    input: (options.input ?? anyParams) as Schema,
    ...(options.requiresApproval !== undefined && { requiresApproval: options.requiresApproval }),
    ...(options.approvalExpiry !== undefined && { approvalExpiry: options.approvalExpiry }),
    async run(params, ctx) {
      const response = await new GenerationRunner(agent, action, params).generateNow({
        nested: true,
        signal: ctx.signal,
      });
      if (!response.awaitingInput) return response.text;
      const questions = response.inputRequests.map((request) => request.toJSON());
      if (onExceeded === 'raise') throw new InputRequiredError(name, questions);
      return {
        error: 'input_required',
        questions,
        message: `${agent.name} needs answers it cannot ask for from here: ${questions.map((question) => question.prompt).join('; ')}`,
      };
    },
  });
}
