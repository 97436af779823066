import type { PendingGeneration, Runtime } from '@interlude/core';
import type { PendingQuestion } from './generation-registry.js';

/**
 * Every open question, oldest first, from `runtime.pending()`: the bus's durable list, so a desk
 * restarted on NATS lists the questions asked before it started, and one answered, expired or
 * cancelled elsewhere is gone.
 */
export async function pendingQuestions(runtime: Runtime): Promise<PendingQuestion[]> {
  return (await runtime.pending()).flatMap(questionsOf);
}

/** One waiting generation's questions, as the page and the terminal client list them. */
export function questionsOf(generation: PendingGeneration): PendingQuestion[] {
  return generation.requests.map((request) => ({
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
