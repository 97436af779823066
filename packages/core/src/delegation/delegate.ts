import { z } from 'zod';
import type { AgentBase } from '../agent/agent-types.js';
import type { Checkpoint } from '../checkpoint/checkpoint.js';
import { createRunLease } from '../claims/run-lease.js';
import { signedClaims } from '../claims/signed-claims.js';
import { InputRequiredError } from '../errors/input-required-error.js';
import { GenerationRunner } from '../generation/generation.js';
import type { GenerationResponse } from '../generation/generation-response.js';
import { hasExpired } from '../input-request/input-deadline.js';
import type { InputExpiryOptions } from '../input-request/input-expiry.js';
import type { ApprovalRule } from '../tool/approval-rule.js';
import { type Tool, tool } from '../tool/tool.js';
import { DelegatedPause, DelegatedResume } from './nested-pause.js';

export interface DelegateOptions<Schema extends z.ZodType> {
  /** The tool's name; `<agent>_<action>` by default. */
  name?: string;
  description: string;
  /** The arguments the model passes, handed to the action as its params. Any object by default. */
  input?: Schema;
  /**
   * What happens when the delegated agent asks a question: `'return'` (default) gives the calling
   * model `{ "error": "input_required", "questions": [...] }`; `'raise'` stops the calling
   * generation with `InputRequiredError`; `'pause'` pauses the calling generation too, at any
   * depth, with the delegated agent's questions as its own, and resumes the delegated generation in
   * place when they are answered: its final text becomes this call's result.
   */
  onExceeded?: 'return' | 'raise' | 'pause';
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
  if (onExceeded !== 'return' && onExceeded !== 'raise' && onExceeded !== 'pause') {
    throw new TypeError(`onExceeded must be 'return', 'raise' or 'pause'`);
  }
  return tool({
    name,
    description: options.description,
    input: (options.input ?? anyParams) as Schema,
    ...(options.requiresApproval !== undefined && { requiresApproval: options.requiresApproval }),
    ...(options.approvalExpiry !== undefined && { approvalExpiry: options.approvalExpiry }),
    async run(params, ctx) {
      const generation = new GenerationRunner(agent, action, params);
      const response = DelegatedResume.isInstance(ctx.answer)
        ? await resumeInPlace(agent, generation, ctx.answer, ctx.signal)
        : await generation.generateNow({ nested: true, signal: ctx.signal });
      if (!response.awaitingInput) return response.text;
      if (onExceeded === 'pause') {
        const requests = response.inputRequests.map((request) => request.toJSON());
        return new DelegatedPause(response.checkpoint as Checkpoint, requests, { agent: agent.name, action });
      }
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

/**
 * Resumes a paused delegated generation inside its caller's resume. It checks its checkpoint and
 * answers as any resume does, and claims nothing: the caller's claim holds the whole tree, so a
 * checkpoint resumed twice is refused at its root. A resume its deadline made meets the delegated
 * generation's deadline when that has passed (it may be later than the caller's earliest).
 */
function resumeInPlace(
  agent: AgentBase,
  generation: GenerationRunner,
  resume: DelegatedResume,
  signal: AbortSignal,
): Promise<GenerationResponse> {
  const { checkpoint } = resume;
  const lease = createRunLease({
    log: signedClaims(agent.runtime),
    generationId: checkpoint.generation_id,
    claimant: undefined,
    epoch: 1,
    mode: 'detached',
    cursor: checkpoint.claim_slot,
  });
  const expiring = resume.expiring && hasExpired(checkpoint);
  return generation.resumeNow(
    { checkpoint, answers: resume.answers },
    { nested: true, signal, lease, ...(expiring && { expiring: true }) },
  );
}
