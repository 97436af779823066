// `Runtime` and `AgentBase` name each other, so both live in `agent-types.ts`; imported from here too.
export type { Runtime, RuntimeOptions } from '../agent/agent-types.js';

/** The queue jobs go to when none is named. */
export const DEFAULT_QUEUE = 'agents';
