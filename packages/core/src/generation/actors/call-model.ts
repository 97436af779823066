import type { EventData } from '../../bus/events.js';
import { checkLease } from '../../claims/check-lease.js';
import { assertDistinctToolCallIds } from '../../provider/check-tool-call-ids.js';
import type { ModelResponse, ToolCall } from '../../provider/provider-adapter.js';
import { scrubError } from '../../secrets/scrubbed-error.js';
import { executeOutsideLoop } from '../execute-outside-loop.js';
import type { GenerationContext } from '../generation-context.js';
import type { RunScope } from '../run-scope.js';
import { buildModelRequest } from '../turn-messages.js';

/**
 * The `callModel` actor of one run: one model call through the adapter, inside a `chat` span,
 * streamed when the run streams. A failure is scrubbed before it goes anywhere.
 */
export async function callModel(scope: RunScope, context: GenerationContext): Promise<ModelResponse> {
  const { options, scrubber, generationId } = scope;
  const logged = scope.replay.shift();
  if (logged !== undefined) {
    const response = replayed(logged, context);
    if (response.text !== '') options.stream?.push({ type: 'text-delta', text: response.text });
    for (const toolCall of response.toolCalls) options.stream?.push({ type: 'tool-call', toolCall });
    return response;
  }
  try {
    // A run whose lease lapsed while it stalled calls no model: the run is someone else's now.
    await checkLease(scope.lease);
  } catch (error) {
    scope.failure = error as Error;
    throw error;
  }
  const { prompt } = options;
  const adapter = options.agent.provider;
  const modelRequest = buildModelRequest(context, prompt, scope.toolSpecs);
  const span = scope.trace?.startModelCall({
    provider: adapter.provider,
    service: adapter.service,
    model: adapter.model,
    stream: options.stream !== undefined,
    parameters: adapter.requestParameters,
    content: () => ({
      instructions: modelRequest.instructions && scrubber.text(modelRequest.instructions),
      messages: scrubber.value(modelRequest.messages),
      tools: modelRequest.tools,
    }),
  });
  const abort = forwardAbort(scope.signal);
  try {
    const request = {
      ...modelRequest,
      executeTool: (call: ToolCall) =>
        executeOutsideLoop(call, {
          prompt,
          scrubber,
          generationId,
          signal: scope.toolSignal,
          onStarting: async () => {
            scope.replay.length = 0;
            scope.publisher.emit('tool_started', { tool_call_id: call.id, tool_name: call.name, attempt: 1 });
            await scope.publisher.flush();
          },
        }),
    };
    const call = () =>
      adapter.call(request, {
        stream: options.stream !== undefined,
        ...(abort && { signal: abort.signal }),
        ...(options.stream && { onPart: (part) => options.stream?.push(part) }),
      });
    const response = await (span ? span.runInContext(call) : call());
    assertDistinctToolCallIds(response.toolCalls, adapter.provider);
    scope.usage.inputTokens += response.usage?.inputTokens ?? 0;
    scope.usage.outputTokens += response.usage?.outputTokens ?? 0;
    span?.end({
      finishReason: response.finishReason,
      ...(response.rawFinishReason !== undefined && { rawFinishReason: response.rawFinishReason }),
      ...(response.responseId !== undefined && { responseId: response.responseId }),
      ...(response.responseModel !== undefined && { responseModel: response.responseModel }),
      ...(response.usage !== undefined && { usage: response.usage }),
      output: () => scrubber.value(response.messages),
    });
    return response;
  } catch (error) {
    scope.failure = scrubError(error, scrubber);
    span?.fail(scope.failure);
    throw scope.failure;
  } finally {
    abort?.release();
  }
}

/**
 * A signal for one model call that aborts with the run's. SDKs add an abort listener per request
 * and never remove it, which on the run's own signal would pile up over a long generation. A run
 * without a signal passes none: the SDK then makes only its own.
 */
function forwardAbort(runSignal: AbortSignal | undefined) {
  if (runSignal === undefined) return undefined;
  const controller = new AbortController();
  const forward = () => controller.abort(runSignal.reason);
  runSignal.addEventListener('abort', forward, { once: true });
  return { signal: controller.signal, release: () => runSignal.removeEventListener('abort', forward) };
}

/**
 * A model answer an earlier holder of the run logged, as the adapter gave it: the event's
 * messages start with the turn's results (which this run has appended already), then the answer.
 */
function replayed(logged: EventData['model_responded'], context: GenerationContext): ModelResponse {
  return {
    messages: logged.messages.slice(context.messages.length - context.reportedTo),
    toolCalls: logged.tool_calls,
    text: logged.text,
    finishReason: logged.finish_reason,
    ...(logged.raw_finish_reason !== undefined && { rawFinishReason: logged.raw_finish_reason }),
    ...(logged.continuation === true && { continuation: true }),
    ...(logged.usage !== undefined && { usage: logged.usage }),
    ...(logged.response_id !== undefined && { responseId: logged.response_id }),
  };
}
