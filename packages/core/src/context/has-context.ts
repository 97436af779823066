import type { ContextStore } from './context-store.js';

export interface ContextBinding {
  readonly store: ContextStore;
  /** The context a generation belongs to, from its params; the agent's name when not given. */
  keyFor(agentName: string, params: unknown): string;
}

/**
 * Persists an agent's conversations in a context store, so each generation starts from the
 * conversation so far. A paused generation stores its user turn and nothing of its response; a
 * resumed one does not store the user turn again; tool messages are stored once per tool call.
 * `contextual` derives the context from the params (the user, the ticket), so a resumed
 * generation lands on the same context as the one that paused.
 *
 * @example
 *   defineAgent({ …, context: hasContext(postgresContextStore({ pool }), { contextual: ({ userId }) => `user:${userId}` }) });
 */
export function hasContext<Params = unknown>(
  store: ContextStore,
  options: { contextual?: (params: Params) => string } = {},
): ContextBinding {
  return {
    store,
    keyFor(agentName, params) {
      if (options.contextual === undefined) return agentName;
      const key = options.contextual(params as Params);
      if (typeof key !== 'string' || key.length === 0) throw new TypeError('contextual must return a non-empty string');
      return key;
    },
  };
}
