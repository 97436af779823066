import type { AgentBase } from '../agent/agent-types.js';
import { createMemoryBus } from '../bus/memory-bus.js';
import { ResumeError } from '../errors/resume-error.js';
import { DEFAULT_QUEUE, type Runtime, type RuntimeOptions } from './runtime.js';

/**
 * Binds the pieces a set of agents share: the bus (events, checkpoints, jobs), telemetry and the
 * checkpoint key. Everything has an embedded default: an in-memory bus, no telemetry, unsigned
 * checkpoints.
 *
 * @example
 *   const runtime = createRuntime({ bus: natsBus({ servers: 'nats://127.0.0.1:4222' }), checkpointKey: process.env.INTERLUDE_CHECKPOINT_KEY });
 *   await runtime.answer(generationId, { [callId]: true });
 */
export function createRuntime(options: RuntimeOptions = {}): Runtime {
  if (
    options.checkpointKey !== undefined &&
    (typeof options.checkpointKey !== 'string' || options.checkpointKey.length < 16)
  ) {
    throw new TypeError('checkpointKey must be a string of at least 16 characters');
  }
  const agents = new Map<string, AgentBase>();
  const runtime: Runtime = {
    bus: options.bus ?? createMemoryBus(),
    telemetry: options.telemetry,
    checkpointKey: options.checkpointKey,
    agents,
    register(agent) {
      const existing = agents.get(agent.name);
      if (existing !== undefined && existing !== agent) {
        throw new TypeError(`This runtime already has an agent named ${agent.name}`);
      }
      agents.set(agent.name, agent);
    },
    async answer(generationId, answers) {
      const { agent, stored } = await locate(generationId);
      return agent
        .generation(stored.checkpoint.action_name, stored.params)
        .resumeNow({ checkpoint: stored.checkpoint, answers });
    },
    async answerLater(generationId, answers, answerOptions = {}) {
      const { agent, stored } = await locate(generationId);
      const { jobId } = await agent
        .generation(stored.checkpoint.action_name, stored.params)
        .resumeLater({ checkpoint: stored.checkpoint, answers, queue: answerOptions.queue ?? DEFAULT_QUEUE });
      return { jobId };
    },
    async close() {
      await runtime.bus.close();
    },
  };

  async function locate(generationId: string) {
    const stored = await runtime.bus.checkpoints.load(generationId);
    // Whether it may still be resumed is the claim's to say, when the resume claims it.
    if (stored === undefined) throw new ResumeError('not_found', `No paused generation ${generationId} is stored`);
    const agent = agents.get(stored.checkpoint.agent);
    if (agent === undefined) {
      throw new ResumeError(
        'agent_mismatch',
        `Generation ${generationId} belongs to agent ${stored.checkpoint.agent}, which this runtime does not have`,
      );
    }
    return { agent, stored };
  }

  return runtime;
}
