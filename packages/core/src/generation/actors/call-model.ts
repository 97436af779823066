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
  const { prompt } = options;
  const adapter = options.agent.provider;
  const span = scope.trace?.startModelCall({
    provider: adapter.provider,
    service: adapter.service,
    model: adapter.model,
  });
  // A signal per call: SDKs add an abort listener per request and never remove it, which on the
  // run's own signal would pile up over a long generation.
  const callController = new AbortController();
  const forwardAbort = () => callController.abort(scope.signal.reason);
  scope.signal.addEventListener('abort', forwardAbort, { once: true });
  try {
    const request = {
      ...buildModelRequest(context, prompt, scope.toolSpecs),
      executeTool: (call: ToolCall) =>
        executeOutsideLoop(call, { prompt, scrubber, generationId, signal: scope.signal }),
    };
    const call = () =>
      adapter.call(request, {
        stream: options.stream !== undefined,
        signal: callController.signal,
        ...(options.stream && { onPart: (part) => options.stream?.push(part) }),
      });
    const response = await (span ? span.runInContext(call) : call());
    scope.usage.inputTokens += response.usage?.inputTokens ?? 0;
    scope.usage.outputTokens += response.usage?.outputTokens ?? 0;
    span?.end({
      finishReason: response.finishReason,
      ...(response.rawFinishReason !== undefined && { rawFinishReason: response.rawFinishReason }),
      ...(response.responseId !== undefined && { responseId: response.responseId }),
      ...(response.responseModel !== undefined && { responseModel: response.responseModel }),
      ...(response.usage !== undefined && { usage: response.usage }),
    });
    return response;
  } catch (error) {
    scope.failure = scrubError(error, scrubber);
    span?.fail(scope.failure);
    throw scope.failure;
  } finally {
    scope.signal.removeEventListener('abort', forwardAbort);
  }
}
