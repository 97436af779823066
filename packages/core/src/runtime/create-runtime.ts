import type { AgentBase } from '../agent/agent-types.js';
import { createMemoryBus } from '../bus/memory-bus.js';
import { ResumeError } from '../errors/resume-error.js';
import { GenerationRunner } from '../generation/generation.js';
import { runtimeKeys } from '../trust/runtime-keys.js';
import { issueAnswerToken } from '../waiting/answer-tokens.js';
import { cancelGeneration } from '../waiting/cancel-generation.js';
import { listPending } from '../waiting/list-pending.js';
import { meetDeadline } from '../waiting/meet-deadline.js';
import { notStored } from '../waiting/not-stored.js';
import { rebuildPendingIndex } from '../waiting/rebuild-pending.js';
import { storedPause } from '../waiting/stored-pause.js';
import { DEFAULT_QUEUE, type Runtime, type RuntimeOptions } from './runtime.js';

/** The environment variable that names the deployment when no `audience` option does. */
export const AUDIENCE_VARIABLE = 'INTERLUDE_AUDIENCE';

/**
 * Binds the pieces a set of agents share: the bus (events, checkpoints, jobs), telemetry and the
 * keys everything that crosses a process is signed with. Everything has an embedded default: an
 * in-memory bus, no telemetry, and a random key per process. A runtime on a bus shared across
 * processes (`natsBus()`) needs a key (`INTERLUDE_CHECKPOINT_KEY` or `checkpointKey`), the same
 * in every process, or refuses to start.
 *
 * @example
 *   const runtime = createRuntime({ bus: natsBus({ servers: 'nats://127.0.0.1:4222' }), checkpointKey: process.env.INTERLUDE_CHECKPOINT_KEY });
 *   await runtime.answer(generationId, { [callId]: true });
 */
export function createRuntime(options: RuntimeOptions = {}): Runtime {
  const bus = options.bus ?? createMemoryBus();
  const keys = runtimeKeys(options.checkpointKey, bus);
  const ttl = options.checkpointTtlMs;
  if (ttl !== undefined && !(Number.isFinite(ttl) && ttl > 0)) {
    throw new TypeError(`checkpointTtlMs must be a positive number of milliseconds, got ${String(ttl)}`);
  }
  const audienceOption = options.audience ?? nonEmpty(process.env[AUDIENCE_VARIABLE]);
  if (audienceOption !== undefined && (typeof audienceOption !== 'string' || audienceOption.length === 0)) {
    throw new TypeError('audience must be a non-empty string');
  }
  bus.useKeys?.(keys);
  let audience: Promise<string | undefined> | undefined;
  const agents = new Map<string, AgentBase>();
  const runtime: Runtime = {
    bus,
    telemetry: options.telemetry,
    keys,
    checkpointTtlMs: ttl,
    audience() {
      if (audience === undefined) {
        const found = audienceOption !== undefined ? Promise.resolve(audienceOption) : deploymentOf(runtime);
        audience = found;
        // A bus that could not answer yet (its server away) is asked again by the next caller.
        found.catch(() => {
          if (audience === found) audience = undefined;
        });
      }
      return audience;
    },
    agents,
    register(agent) {
      // The latest definition wins lookups by name; see `Runtime.register` for why.
      agents.set(agent.name, agent);
    },
    async answer(generationId, answers) {
      const { agent, stored, verified } = await locate(generationId);
      return new GenerationRunner(agent, stored.checkpoint.action_name, stored.params).resumeNow(
        { checkpoint: stored.checkpoint, answers },
        verified === undefined ? {} : { verified },
      );
    },
    async answerLater(generationId, answers, answerOptions = {}) {
      const { agent, stored, verified } = await locate(generationId);
      const { jobId } = await new GenerationRunner(agent, stored.checkpoint.action_name, stored.params).resumeLater(
        {
          checkpoint: stored.checkpoint,
          answers,
          queue: answerOptions.queue ?? DEFAULT_QUEUE,
          ...(answerOptions.jobId !== undefined && { jobId: answerOptions.jobId }),
        },
        verified === undefined ? {} : { verified },
      );
      return { jobId };
    },
    answerToken(generationId, toolCallId, tokenOptions) {
      return issueAnswerToken(runtime, generationId, toolCallId, tokenOptions);
    },
    pending(filter) {
      return listPending(runtime, filter);
    },
    rebuildPending() {
      return rebuildPendingIndex(runtime);
    },
    cancel(generationId, reason) {
      return cancelGeneration(runtime, generationId, reason);
    },
    async close() {
      await (await deadlines)?.stop();
      await runtime.bus.close();
    },
  };
  // A bus that never leaves the process has no worker to meet its deadlines: the runtime does,
  // resuming each expired pause here. On a shared bus, workers do (`createWorker`).
  const deadlines = bus.shared
    ? undefined
    : bus.timers?.consume(async (timer) =>
        (await meetDeadline(runtime, timer)) === 'fenced' ? { verdict: 'abandon' } : { verdict: 'done' },
      );

  async function locate(generationId: string) {
    // The stored checkpoint if it verifies, else the pause rebuilt from the generation's log (a
    // record lost or replaced); else the record as stored, for the resume to refuse.
    const found = await storedPause(runtime, generationId);
    const stored = found.verified ?? found.stored;
    // Whether it may still be resumed is the claim's to say, when the resume claims it.
    if (stored === undefined) throw await notStored(runtime.bus, generationId);
    // The resume checks the checkpoint's signature (which covers the stored params); it cannot see
    // under which id it was stored, so a signed checkpoint moved under another generation's key
    // (to be approved as that generation's question) is refused here.
    if (stored.checkpoint?.generation_id !== generationId) {
      throw new ResumeError(
        'bad_signature',
        `The record stored for generation ${generationId} holds another generation's checkpoint: it was moved there`,
      );
    }
    const agent = agents.get(stored.checkpoint.agent);
    if (agent === undefined) {
      throw new ResumeError(
        'agent_mismatch',
        `Generation ${generationId} belongs to agent ${stored.checkpoint.agent}, which this runtime does not have`,
      );
    }
    const action = stored.checkpoint.action_name;
    if (agent.actions[action] === undefined) {
      throw new ResumeError(
        'action_mismatch',
        `Generation ${generationId} paused in action ${action}, which agent ${agent.name} as defined now does not have`,
      );
    }
    // Verified as loaded: the resume checks its signature over the canonical JSON made then.
    const verified =
      found.verified === undefined ? undefined : { checkpoint: found.verified.checkpoint, unsigned: found.unsigned };
    return { agent, stored, verified };
  }

  return runtime;
}

/** The bus's deployment id, or none for a bus that never leaves the process. */
async function deploymentOf(runtime: Runtime): Promise<string | undefined> {
  return runtime.bus.deploymentId === undefined ? undefined : runtime.bus.deploymentId();
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}
