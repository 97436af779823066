import { createActor, fromPromise } from 'xstate';
import type { ResolvedPrompt } from '../agent/action.js';
import type { AgentBase } from '../agent/agent-types.js';
import type { Checkpoint, CompletedResult } from '../checkpoint/checkpoint.js';
import { checkpointFromContext } from '../checkpoint/checkpoint-from-context.js';
import { priorMessages, recordRun } from '../context/record-context.js';
import { InputRequest } from '../input-request/input-request.js';
import type { ModelResponse, ToolCall, Usage } from '../provider/provider-adapter.js';
import { releaseScrubber, scrubberFor } from '../secrets/generation-secrets.js';
import type { Scrubber } from '../secrets/scrub.js';
import { scrubError } from '../secrets/scrubbed-error.js';
import { dispatchToolCalls } from '../tool/dispatch-tool-calls.js';
import { runOutsideToolScope } from '../tool/tool-context.js';
import { eventData } from './event-data.js';
import { createEventPublisher } from './event-publisher.js';
import { executeOutsideLoop } from './execute-outside-loop.js';
import type { GenerationContext } from './generation-context.js';
import { generationMachine, type RunToolsInput, type RunToolsOutput } from './generation-machine.js';
import type { GenerationResponse } from './generation-response.js';
import type { StreamSink } from './generation-stream.js';
import { notifyInputRequest } from './notify-input-request.js';
import { openToolsets } from './open-toolsets.js';
import { buildModelRequest, toResultMessages } from './turn-messages.js';

/** Where a run starts: a fresh generation, or a checked resume of a paused one. */
export type RunStart =
  | { kind: 'fresh'; generationId: string }
  | {
      kind: 'resume';
      checkpoint: Checkpoint;
      context: GenerationContext;
      answers: ReadonlyMap<string, unknown>;
      run: string;
    };

export interface RunOptions {
  agent: AgentBase;
  prompt: ResolvedPrompt;
  params: unknown;
  start: RunStart;
  stream?: StreamSink;
  signal?: AbortSignal;
  /** The caller's trace context (a job's headers). */
  parentTraceparent?: string;
  /**
   * Run as a delegated (nested) generation: it cannot pause, so a pause is neither stored,
   * published nor passed to `onInputRequest`; the caller turns its questions into a tool result.
   */
  nested?: boolean;
  /** Results already in the event log for this run (a redelivered job): reused, not run again. */
  recovered?: Readonly<Record<string, CompletedResult>>;
}

/**
 * Runs one generation (or one resume of it) to its next stop: paused, done or failed. It binds the
 * machine's actors to this run's provider, tools, bus and telemetry, publishes every transition,
 * stores the checkpoint before announcing a pause, and throws the (scrubbed) failure.
 */
export async function runGeneration(options: RunOptions): Promise<GenerationResponse> {
  return runOutsideToolScope(() => run(options));
}

async function run(options: RunOptions): Promise<GenerationResponse> {
  const { start } = options;
  const initial = start.kind === 'fresh' ? freshContext(options, start.generationId) : start.context;
  const generationId = initial.generationId;
  const scrubber = scrubberFor(generationId);
  let paused = false;
  if (start.kind === 'fresh')
    initial.messages = [...(await priorMessages(options.agent, options.params)), ...initial.messages];
  const opened = await openToolsets(options.prompt);
  const record = {
    agent: options.agent,
    action: options.prompt.actionName,
    params: options.params,
    generationId,
    fresh: start.kind === 'fresh',
    userText: options.prompt.message,
  };
  try {
    const response = await runToStop({ ...options, prompt: opened.prompt }, initial, scrubber);
    paused = response.awaitingInput;
    if (!options.nested)
      await recordRun(options.agent.runtime.bus, { ...record, status: response.status, finalText: response.text });
    return response;
  } catch (error) {
    if (!options.nested) await recordRun(options.agent.runtime.bus, { ...record, status: 'failed' }).catch(() => {});
    throw error;
  } finally {
    releaseScrubber(generationId, !paused);
    // A paused generation holds no connection: MCP servers are opened again on resume.
    await opened.close();
  }
}

async function runToStop(
  options: RunOptions,
  initial: GenerationContext,
  scrubber: Scrubber,
): Promise<GenerationResponse> {
  const { agent, prompt, start } = options;
  const { runtime, provider: adapter } = agent;
  const generationId = initial.generationId;
  const trace = runtime.telemetry?.startGeneration({
    agent: agent.name,
    action: prompt.actionName,
    generationId,
    provider: adapter.provider,
    model: adapter.model,
    resumed: start.kind === 'resume',
    ...(start.kind === 'resume' &&
      start.checkpoint.traceparent !== undefined && { linkedTraceparent: start.checkpoint.traceparent }),
    ...(options.parentTraceparent !== undefined && { parentTraceparent: options.parentTraceparent }),
  });
  const traceparent = trace?.traceparent;
  const publisher = createEventPublisher(
    runtime.bus,
    { agent: agent.name, action: prompt.actionName, generationId, run: start.kind === 'fresh' ? 'start' : start.run },
    scrubber,
  );
  const signal = options.signal ?? options.stream?.signal ?? new AbortController().signal;
  const usage: Required<Pick<Usage, 'inputTokens' | 'outputTokens'>> = { inputTokens: 0, outputTokens: 0 };
  let failure: Error | undefined;

  const machine = generationMachine.provide({
    actors: {
      callModel: fromPromise<ModelResponse, GenerationContext>(async ({ input: context }) => {
        const span = trace?.startModelCall({
          provider: adapter.provider,
          service: adapter.service,
          model: adapter.model,
        });
        try {
          const request = {
            ...buildModelRequest(context, prompt),
            executeTool: (call: ToolCall) => executeOutsideLoop(call, { prompt, scrubber, generationId, signal }),
          };
          const call = () =>
            adapter.call(request, {
              stream: options.stream !== undefined,
              signal,
              ...(options.stream && { onPart: (part) => options.stream?.push(part) }),
            });
          const response = await (span ? span.runInContext(call) : call());
          usage.inputTokens += response.usage?.inputTokens ?? 0;
          usage.outputTokens += response.usage?.outputTokens ?? 0;
          span?.end({
            finishReason: response.finishReason,
            ...(response.rawFinishReason !== undefined && { rawFinishReason: response.rawFinishReason }),
            ...(response.responseId !== undefined && { responseId: response.responseId }),
            ...(response.responseModel !== undefined && { responseModel: response.responseModel }),
            ...(response.usage !== undefined && { usage: response.usage }),
          });
          return response;
        } catch (error) {
          failure = scrubError(error, scrubber);
          span?.fail(failure);
          throw failure;
        }
      }),
      runTools: fromPromise<RunToolsOutput, RunToolsInput>(async ({ input }) => {
        try {
          return await runTools(input);
        } catch (error) {
          failure = scrubError(error, scrubber);
          throw failure;
        }
      }),
    },
    actions: {
      publish: ({ context, event }, params) => {
        if (options.nested && params.event === 'input_requested') return;
        const answers = event.type === 'RESUME' ? event.answers : undefined;
        const data = eventData(params.event, context, { traceparent, ...(answers && { answers }) });
        // A pause is stored before it is announced, so whoever hears input_requested can resume it.
        const before =
          params.event === 'input_requested'
            ? async () => {
                await runtime.bus.checkpoints.save(generationId, {
                  checkpoint: checkpointFromContext(context, traceparent, runtime.checkpointKey),
                  params: options.params,
                });
              }
            : undefined;
        publisher.emit(params.event, data, before);
      },
    },
  });

  async function runTools({ context, answers, resuming }: RunToolsInput): Promise<RunToolsOutput> {
    const secretCalls = new Set(
      context.inputRequests
        .filter((request) => request.kind === 'secret')
        .map((request) => request.tool_call_id as string),
    );
    const result = await dispatchToolCalls({
      calls: context.turnCalls,
      tools: prompt.tools,
      gatedTools: prompt.gatedTools,
      completed: context.completedResults,
      recovered: options.recovered ?? {},
      answers,
      approvalCalls: new Set(context.approvalToolCalls),
      mcpCalls: new Set(context.mcpToolCalls),
      approvedCalls: new Set(context.approvedToolCalls),
      secretCalls,
      scrubber,
      generationId,
      resuming,
      signal,
      ...(trace && { trace }),
      onCompleted: async (callId, completed) => {
        publisher.emit('tool_completed', { tool_call_id: callId, ...completed });
        options.stream?.push({
          type: 'tool-result',
          toolCallId: callId,
          toolName: completed.tool_name,
          result: completed.result,
          isError: completed.is_error,
        });
        // Stored before the next call runs: a replay after a crash finds it and does not run it again.
        await publisher.flush();
      },
      onInputRequest: (request) =>
        options.stream?.push({ type: 'input-request', request: InputRequest.fromJSON(request) }),
    });
    const resultMessages =
      result.inputRequests.length > 0
        ? []
        : adapter.toolResultMessages(toResultMessages(context.turnCalls, result.completed));
    return { ...result, resultMessages };
  }

  const actor = createActor(machine, { input: initial });
  const stopped = waitForStop(actor, start.kind === 'resume');
  actor.start();
  if (start.kind === 'resume') actor.send({ type: 'RESUME', answers: start.answers });
  const snapshot = await stopped;
  actor.stop();
  const context = snapshot.context;
  await publisher.flush();

  if (snapshot.value === 'failed') {
    trace?.end({ status: 'failed', ...(failure && { error: failure }) });
    throw failure ?? new Error(context.error?.message ?? 'The generation failed');
  }
  const paused = snapshot.value === 'awaiting_input';
  const checkpoint = paused ? checkpointFromContext(context, traceparent, runtime.checkpointKey) : undefined;
  const status = paused ? 'awaiting_input' : context.decision === 'exceeded' ? 'tool_turns_exceeded' : 'completed';
  const response: GenerationResponse = {
    generationId,
    status,
    awaitingInput: paused,
    text: context.lastResponse?.text ?? '',
    finishReason: context.lastResponse?.finishReason ?? 'other',
    rawFinishReason: context.lastResponse?.rawFinishReason,
    inputRequests: paused ? context.inputRequests.map((request) => InputRequest.fromJSON(request)) : [],
    checkpoint,
    messages: context.messages,
    toolTurns: context.toolTurns,
    usage,
  };
  if (checkpoint !== undefined && !options.nested) {
    await notifyInputRequest(agent, prompt.actionName, options.params, response.inputRequests, checkpoint);
  }
  trace?.end({ status });
  return response;
}

type GenerationActor = ReturnType<typeof createActor<typeof generationMachine>>;

/** Resolves at the run's next stop. A resumed run starts paused, so its first pause is not a stop. */
function waitForStop(actor: GenerationActor, startsPaused: boolean) {
  let passedStart = !startsPaused;
  return new Promise<ReturnType<GenerationActor['getSnapshot']>>((resolve, reject) => {
    const subscription = actor.subscribe({
      next(snapshot) {
        if (!passedStart) {
          passedStart = snapshot.value !== 'awaiting_input' && snapshot.value !== 'init';
          if (!passedStart) return;
        }
        if (snapshot.status === 'done' || snapshot.value === 'awaiting_input') {
          subscription.unsubscribe();
          resolve(snapshot);
        }
      },
      error: reject,
    });
  });
}

function freshContext(options: RunOptions, generationId: string): GenerationContext {
  const { agent, prompt } = options;
  return {
    agent: agent.name,
    generationId,
    actionName: prompt.actionName,
    service: agent.provider.service,
    provider: agent.provider.provider,
    model: agent.provider.model,
    messages: agent.provider.userMessages(prompt.message),
    unreported: [],
    toolTurns: 0,
    maxToolTurns: prompt.maxToolTurns,
    toolChoice: prompt.toolChoice,
    toolChoiceCleared: false,
    maxContinuations: agent.provider.maxContinuations ?? 0,
    continuations: 0,
    turnCalls: [] as ToolCall[],
    toolCallTurnSize: 0,
    completedResults: {},
    inputRequests: [],
    approvalToolCalls: [],
    approvedToolCalls: [],
    mcpToolCalls: [],
    lastResponse: undefined,
    decision: undefined,
    error: undefined,
  };
}
