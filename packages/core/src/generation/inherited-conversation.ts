import type { RunOptions } from './run-options.js';

/**
 * The conversation a fresh generation joins without naming one: a job's run joins the one its job
 * carries (`conversation_id`, the generation that queued it), a run started in-process the one of
 * the generation it runs inside (a delegation, a tool's `generateNow`). Undefined when its agent
 * names its own (`conversationId`, computed from the params on every run) or when it would be the
 * generation id anyway: only an id no run could work out again is kept in the generation's
 * identity, so its checkpoint carries it to the resume, wherever that runs.
 */
export function inheritedConversationId(options: RunOptions, generationId: string): string | undefined {
  if (options.agent.conversationId !== undefined) return undefined;
  const inherited =
    options.lease.mode === 'job'
      ? options.parentConversationId
      : options.agent.runtime.telemetry?.currentConversationId?.();
  return inherited === generationId ? undefined : inherited;
}
