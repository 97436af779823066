import type { ContextGeneration, ContextMessage, ContextStore } from './context-store.js';

/** A context store in memory, for tests and single-process apps. */
export function memoryContextStore(): ContextStore & {
  /** Everything stored, for inspection: messages and generations by context key. */
  readonly contexts: ReadonlyMap<string, { messages: ContextMessage[]; generations: Map<string, ContextGeneration> }>;
} {
  const contexts = new Map<string, { messages: ContextMessage[]; generations: Map<string, ContextGeneration> }>();
  const contextFor = (key: string) => {
    let context = contexts.get(key);
    if (context === undefined) {
      context = { messages: [], generations: new Map() };
      contexts.set(key, context);
    }
    return context;
  };
  return {
    contexts,
    async load(contextKey) {
      return structuredClone(contexts.get(contextKey)?.messages ?? []);
    },
    async append(contextKey, messages) {
      const context = contextFor(contextKey);
      for (const message of messages) {
        const duplicate =
          message.toolCallId !== undefined &&
          context.messages.some((stored) => stored.toolCallId === message.toolCallId);
        if (!duplicate) context.messages.push(structuredClone(message));
      }
    },
    async recordGeneration(contextKey, generation) {
      contextFor(contextKey).generations.set(generation.generationId, { ...generation });
    },
  };
}
