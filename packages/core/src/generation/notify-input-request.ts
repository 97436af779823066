import type { AgentBase, InputRequestCallbackEntry, InputRequestInfo } from '../agent/agent-types.js';
import type { Checkpoint } from '../checkpoint/checkpoint.js';
import type { InputRequest } from '../input-request/input-request.js';

/** Runs the agent's `onInputRequest` callbacks in order, before the paused response returns. */
export async function notifyInputRequest(
  agent: AgentBase,
  action: string,
  params: unknown,
  requests: InputRequest[],
  checkpoint: Checkpoint,
  resuming: boolean,
): Promise<void> {
  const info: InputRequestInfo = {
    agent: agent.name,
    action,
    generationId: checkpoint.generation_id,
    params,
    checkpoint,
    resuming,
  };
  for (const entry of agent.inputRequestCallbacks) {
    if (!appliesTo(entry, action)) continue;
    const handler = typeof entry === 'function' ? entry : entry.handler;
    await handler(requests, info);
  }
}

function appliesTo(entry: InputRequestCallbackEntry, action: string): boolean {
  if (typeof entry === 'function') return true;
  if (entry.only !== undefined && !entry.only.includes(action)) return false;
  if (entry.except?.includes(action)) return false;
  return true;
}
