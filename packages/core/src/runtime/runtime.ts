import type { AgentBase } from '../agent/agent-types.js';
import type { Bus } from '../bus/bus.js';
import type { GenerationResponse } from '../generation/generation-response.js';
import type { Telemetry } from '../telemetry/telemetry.js';

/** The shared pieces a set of agents runs on. */
export interface Runtime {
  readonly bus: Bus;
  readonly telemetry: Telemetry | undefined;
  /** Signs checkpoints (HMAC-SHA256) and refuses unsigned or altered ones. */
  readonly checkpointKey: string | undefined;
  /** Agents defined with this runtime, by name. */
  readonly agents: ReadonlyMap<string, AgentBase>;
  /** Called by `defineAgent`; a second agent with the same name is refused. */
  register(agent: AgentBase): void;
  /** Resumes a stored checkpoint by generation id, in this process. */
  answer(generationId: string, answers: Record<string, unknown>): Promise<GenerationResponse>;
  /** Queues the resume of a stored checkpoint for a worker. Secret answers are refused. */
  answerLater(
    generationId: string,
    answers: Record<string, unknown>,
    options?: { queue?: string },
  ): Promise<{ jobId: string }>;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  bus?: Bus;
  telemetry?: Telemetry;
  checkpointKey?: string;
}

export const DEFAULT_QUEUE = 'agents';
