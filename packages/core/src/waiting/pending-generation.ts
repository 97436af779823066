import type { AskedInputRequest } from '../input-request/input-request.js';

/** What `runtime.pending()` narrows to: one agent, one action, or both. */
export interface PendingFilter {
  agent?: string;
  action?: string;
}

/** One generation waiting on a person, as `runtime.pending()` lists it. */
export interface PendingGeneration {
  generationId: string;
  agent: string;
  action: string;
  /** Its questions, each bound to the call that asked (answer them by `toolCallId`). */
  inputRequests: AskedInputRequest[];
  askedAt: Date;
  /** When it stops waiting (the earliest deadline of its questions); undefined: never. */
  expiresAt: Date | undefined;
}
