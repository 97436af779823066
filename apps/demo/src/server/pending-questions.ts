import type { ChoiceOption, InputRequestKind, PendingGeneration, Runtime } from '@interlude/core';

/** A question a paused generation waits on, as the page and the terminal client list it. */
export interface PendingQuestion extends ListedQuestion {
  /** What answers it through the gateway: this question, once, and nothing else. */
  answerToken: string;
}

/** A question as a generation's summary shows it (no token: the summary is no way to answer). */
export interface ListedQuestion {
  generationId: string;
  agent: string;
  toolCallId: string;
  toolName: string;
  kind: InputRequestKind;
  prompt: string;
  options?: ChoiceOption[];
  arguments?: unknown;
  /** An approval gate's question (`requiresApproval`) rather than the tool's own. */
  approval: boolean;
  askedAt: string;
  /** When it stops waiting (nobody answered: its expiry outcome applies); absent: never. */
  expiresAt?: string;
}

/**
 * Every open question, oldest first, from `runtime.pending()`: the bus's durable list, so a desk
 * restarted on NATS lists the questions asked before it started, and one answered, expired or
 * cancelled elsewhere is gone.
 */
export async function pendingQuestions(runtime: Runtime): Promise<PendingQuestion[]> {
  const questions = (await runtime.pending()).flatMap(questionsOf);
  const withTokens = await Promise.all(
    questions.map(async (question) =>
      runtime.answerToken(question.generationId, question.toolCallId).then(
        (answerToken) => ({ ...question, answerToken }),
        // Answered or cancelled since it was listed: nothing waits on it any more.
        () => undefined,
      ),
    ),
  );
  return withTokens.filter((question) => question !== undefined);
}

/** One waiting generation's questions, as the page and the terminal client list them. */
export function questionsOf(generation: PendingGeneration): ListedQuestion[] {
  return generation.inputRequests.map((request) => ({
    generationId: generation.generationId,
    agent: generation.agent,
    toolCallId: request.toolCallId,
    toolName: request.toolName,
    kind: request.kind,
    prompt: request.prompt,
    ...(request.options !== undefined && { options: request.options }),
    ...(request.arguments !== undefined && { arguments: request.arguments }),
    approval: request.metadata?.['approval'] === true,
    askedAt: generation.askedAt.toISOString(),
    ...(generation.expiresAt !== undefined && { expiresAt: generation.expiresAt.toISOString() }),
  }));
}
