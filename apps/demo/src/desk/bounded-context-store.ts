import { type ContextStore, memoryContextStore } from '@interlude/core';

/** How much of each ticket's conversation the desk keeps. */
export interface ContextBounds {
  /** Messages kept per ticket, newest last; older ones are dropped whole turns at a time. */
  messages: number;
  /** Generations remembered per ticket. */
  generations: number;
}

export const DEFAULT_CONTEXT_BOUNDS: ContextBounds = { messages: 40, generations: 50 };

/**
 * The memory context store with a ceiling per ticket. Every run of a ticket reads its whole
 * history and adds to it, so an unbounded history makes each run larger than the last: 1,000 runs
 * of one ticket grew the demo from 168 to 484 MB. Past `messages`, the oldest turns go (the kept
 * history always starts at a user message, so no tool result is left without its question).
 */
export function boundedContextStore(bounds: ContextBounds = DEFAULT_CONTEXT_BOUNDS) {
  const store = memoryContextStore();
  const trim = (contextKey: string) => {
    const context = store.contexts.get(contextKey);
    if (context === undefined) return;
    const { messages, generations } = context;
    if (messages.length > bounds.messages) {
      let cut = messages.length - bounds.messages;
      while (cut < messages.length && messages[cut]?.role !== 'user') cut += 1;
      messages.splice(0, cut);
    }
    for (const generationId of generations.keys()) {
      if (generations.size <= bounds.generations) break;
      generations.delete(generationId);
    }
  };
  const bounded: ContextStore & { readonly contexts: typeof store.contexts } = {
    contexts: store.contexts,
    load: (contextKey) => store.load(contextKey),
    async append(contextKey, messages) {
      await store.append(contextKey, messages);
      trim(contextKey);
    },
    async recordGeneration(contextKey, generation) {
      await store.recordGeneration(contextKey, generation);
      trim(contextKey);
    },
  };
  return bounded;
}
