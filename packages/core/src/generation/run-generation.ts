import type { AgentBase } from '../agent/agent-types.js';
import { type CheckpointSeal, checkpointFromContext } from '../checkpoint/checkpoint-from-context.js';
import { checkLease } from '../claims/check-lease.js';
import { endFailedRun, pauseSlot, type RunLease } from '../claims/run-lease.js';
import { priorMessages, recordRun } from '../context/record-context.js';
import { FencedError } from '../errors/fenced-error.js';
import { InterludeError } from '../errors/interlude-error.js';
import { askedInputRequest } from '../input-request/asked-input-request.js';
import { isPermanentFailure } from '../runtime/permanent-failure.js';
import { releaseScrubber, scrubberFor } from '../secrets/generation-secrets.js';
import type { Scrubber } from '../secrets/scrub.js';
import { toToolSpec } from '../tool/tool.js';
import { lazyAnswerTokens } from '../waiting/answer-tokens.js';
import { inputExpiredData } from '../waiting/input-expired-data.js';
import { runMachineToStop } from './bound-machine.js';
import { createEventPublisher } from './event-publisher.js';
import { type GenerationContext, startingContext } from './generation-context.js';
import type { GenerationResponse } from './generation-response.js';
import { inheritedConversationId } from './inherited-conversation.js';
import { notifyInputRequest } from './notify-input-request.js';
import { openToolsets } from './open-toolsets.js';
import type { RunOptions } from './run-options.js';
import type { RunScope } from './run-scope.js';

export type { RunOptions, RunStart } from './run-options.js';

/**
 * Runs one generation (or one resume of it) to its next stop: paused, done or failed. It binds the
 * machine's actors to this run's provider, tools, bus and telemetry, publishes every transition,
 * stores the checkpoint before announcing a pause, and throws the (scrubbed) failure.
 */
export async function runGeneration(options: RunOptions): Promise<GenerationResponse> {
  const { start } = options;
  const initial = start.kind === 'fresh' ? freshContext(options, start.generationId) : start.context;
  const generationId = initial.identity.generationId;
  const scrubber = scrubberFor(generationId);
  let paused = false;
  let opened: Awaited<ReturnType<typeof openToolsets>>;
  let conversationId: string | undefined;
  try {
    // A resume joins the conversation its generation started in, whoever resumes it, from wherever.
    conversationId =
      conversationIdOf(options.agent, options.params) ??
      initial.identity.conversationId ??
      (start.kind === 'resume' ? generationId : undefined);
    if (start.kind === 'fresh') {
      initial.messages = [...(await priorMessages(options.agent, options.params)), ...initial.messages];
      // `started` carries them all.
      initial.reportedTo = initial.messages.length;
    }
    opened = await openToolsets(options.prompt);
  } catch (error) {
    await giveBack(options.lease, error);
    throw error;
  }
  const record = {
    agent: options.agent,
    action: options.prompt.actionName,
    params: options.params,
    generationId,
    fresh: start.kind === 'fresh',
    userText: options.prompt.message,
  };
  try {
    const { runtime } = options.agent;
    const seal: CheckpointSeal = {
      keys: runtime.keys,
      params: options.params,
      audience: await runtime.audience(),
      ttlMs: runtime.checkpointTtlMs,
    };
    const response = await runToStop({ ...options, prompt: opened.prompt }, initial, scrubber, seal, conversationId);
    paused = response.awaitingInput;
    if (!options.nested)
      await recordRun(options.agent.runtime.bus, { ...record, status: response.status, finalText: response.text });
    return response;
  } catch (error) {
    if (FencedError.isInstance(error)) throw error;
    await giveBack(options.lease, error);
    if (!options.nested) await recordRun(options.agent.runtime.bus, { ...record, status: 'failed' }).catch(() => {});
    throw error;
  } finally {
    releaseScrubber(generationId, !paused);
    // A paused generation holds no connection: MCP servers are opened again on resume.
    await opened.close();
  }
}

/**
 * A failure the machine did not announce (opening MCP servers, the context store, the bus) gives
 * the claim back too (a job's ends, when retrying cannot help); a job fenced out while doing so
 * was taken over, which is what it throws then.
 */
async function giveBack(lease: RunLease, error: unknown): Promise<void> {
  if (FencedError.isInstance(error)) return;
  await endFailedRun(lease, { error, permanent: isPermanentFailure(error) }).catch((releaseError: unknown) => {
    if (FencedError.isInstance(releaseError)) throw releaseError;
  });
}

async function runToStop(
  options: RunOptions,
  initial: GenerationContext,
  scrubber: Scrubber,
  seal: CheckpointSeal,
  conversationId: string | undefined,
): Promise<GenerationResponse> {
  const { agent, prompt, start } = options;
  const { runtime, provider: adapter } = agent;
  const generationId = initial.identity.generationId;
  const trace = runtime.telemetry?.startGeneration({
    agent: agent.name,
    action: prompt.actionName,
    generationId,
    ...(conversationId !== undefined && { conversationId }),
    provider: adapter.provider,
    model: adapter.model,
    resumed: start.kind === 'resume',
    secrets: scrubber,
    content: () => ({
      instructions: prompt.instructions && scrubber.text(prompt.instructions),
      input: scrubber.text(prompt.message),
    }),
    ...(start.kind === 'resume' &&
      start.checkpoint.traceparent !== undefined && { linkedTraceparent: start.checkpoint.traceparent }),
    ...(options.parentTraceparent !== undefined && { parentTraceparent: options.parentTraceparent }),
  });
  let madeToolSignal: AbortSignal | undefined;
  const scope: RunScope = {
    options,
    generationId,
    lease: options.lease,
    replay: [...(options.recovery?.responses ?? [])],
    scrubber,
    trace,
    traceparent: trace?.traceparent,
    publisher: createEventPublisher(
      runtime.bus,
      {
        agent: agent.name,
        action: prompt.actionName,
        generationId,
        run: start.kind === 'fresh' ? 'start' : start.run,
        epoch: options.lease.epoch,
      },
      scrubber,
      // A job's run can lapse (another delivery takes it over): each event waits for its lease check.
      options.lease.mode === 'job' ? () => checkLease(options.lease) : undefined,
    ),
    signal: options.signal ?? options.stream?.signal,
    // An AbortController costs Node 20 a transferable object: made only when a tool reads it
    // (and kept aside, so the scope keeps its shape).
    get toolSignal() {
      madeToolSignal ??= this.signal ?? new AbortController().signal;
      return madeToolSignal;
    },
    usage: { inputTokens: 0, outputTokens: 0 },
    toolSpecs: [...prompt.tools.values()].map(toToolSpec),
    seal,
    pausedCheckpoint: undefined,
    failure: undefined,
  };
  const { publisher, traceparent, usage } = scope;

  if (start.kind === 'resume' && start.expiring) {
    publisher.emit('input_expired', inputExpiredData(start.checkpoint, start.answers));
  }
  const snapshot = await runMachineToStop(initial, scope, start.kind === 'resume' ? start.answers : undefined);
  const context = snapshot.context;
  await publisher.flush();

  if (snapshot.value === 'failed') {
    const failure = scope.failure;
    trace?.end({ status: 'failed', ...(failure && { error: failure }) });
    throw failure ?? new Error(context.error?.message ?? 'The generation failed');
  }
  const paused = snapshot.value === 'awaiting_input';
  // A nested run announces no pause, so it has no stored checkpoint to reuse.
  const checkpoint = paused
    ? (scope.pausedCheckpoint ?? checkpointFromContext(context, pauseSlot(options.lease), traceparent, seal))
    : undefined;
  const status = paused ? 'awaiting_input' : context.decision === 'exceeded' ? 'tool_turns_exceeded' : 'completed';
  const response: GenerationResponse = {
    generationId,
    status,
    awaitingInput: paused,
    text: context.lastResponse?.turnText ?? '',
    finishReason: context.lastResponse?.finishReason ?? 'other',
    rawFinishReason: context.lastResponse?.rawFinishReason,
    inputRequests: paused ? context.inputRequests.map(askedInputRequest) : [],
    checkpoint,
    answerTokens: {},
    messages: context.messages,
    toolTurns: context.toolTurns,
    usage,
    continuationsExceeded: !paused && context.lastResponse?.continuation === true,
  };
  if (checkpoint !== undefined && !options.nested) {
    lazyAnswerTokens(response, runtime.keys, checkpoint);
    const resuming = start.kind === 'resume';
    await notifyInputRequest(agent, prompt.actionName, options.params, response.inputRequests, checkpoint, resuming);
  }
  trace?.end({
    status,
    output: () => scrubber.text(response.text),
    ...(checkpoint?.input_expires_at !== undefined && { inputExpiresAt: checkpoint.input_expires_at }),
  });
  return response;
}

/** The app's conversation id for these params, checked before anything runs; undefined when the agent has none. */
function conversationIdOf(agent: AgentBase, params: unknown): string | undefined {
  if (agent.conversationId === undefined) return undefined;
  const id = agent.conversationId(params);
  if (typeof id !== 'string' || id.length === 0) {
    throw new InterludeError(
      'invalid_conversation_id',
      `conversationId of agent ${agent.name} returned ${JSON.stringify(id)}: it must return a non-empty string`,
    );
  }
  return id;
}

function freshContext(options: RunOptions, generationId: string): GenerationContext {
  const { agent, prompt } = options;
  const inherited = inheritedConversationId(options, generationId);
  return startingContext({
    identity: {
      agent: agent.name,
      generationId,
      actionName: prompt.actionName,
      service: agent.provider.service,
      provider: agent.provider.provider,
      model: agent.provider.model,
      ...(inherited !== undefined && { conversationId: inherited }),
    },
    limits: { maxToolTurns: prompt.maxToolTurns, maxContinuations: agent.provider.maxContinuations ?? 0 },
    messages: agent.provider.userMessages(prompt.message),
    toolChoice: prompt.toolChoice,
  });
}
