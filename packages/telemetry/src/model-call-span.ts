import type { ModelCallInfo, ModelCallTrace } from '@interlude/core/internal';
import type { Usage } from '@interlude/core/provider';
import { type Attributes, type Context, SpanKind } from '@opentelemetry/api';
import { ChildSpan } from './child-span.js';
import {
  openInferenceKind,
  openInferenceModel,
  openInferenceRequest,
  openInferenceResponse,
  openInferenceUsage,
} from './openinference.js';
import { OI_KIND_LLM } from './openinference-names.js';
import type { RunSpanScope } from './run-span-scope.js';
import {
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_OUTPUT_MESSAGES,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
  ATTR_GEN_AI_RESPONSE_ID,
  ATTR_GEN_AI_RESPONSE_MODEL,
  ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  ATTR_INTERLUDE_FINISH_REASON,
  ATTR_INTERLUDE_PROVIDER_API,
  GEN_AI_OPERATION_CHAT,
} from './semconv.js';
import {
  chatInputAttributes,
  chatOutputMessages,
  contentJson,
  readChatRequest,
  requestAttributes,
} from './span-content.js';
import { suppressedTracing } from './suppress-tracing.js';

/** What core knows when a model call starts: vendor, wire API, requested model, and the request. */
export type ModelCallStart = ModelCallInfo;

type ModelCallEnd = Parameters<ModelCallTrace['end']>[0];

/**
 * The `chat <model>` span of one model call: a CLIENT span, since it is a request to a remote
 * API; the SDK's own HTTP span (when instrumented) nests under it through `runInContext`. With
 * content capture it holds the request's messages, instructions and tools, and the answer.
 */
export class ModelCallSpan extends ChildSpan implements ModelCallTrace {
  readonly #scope: RunSpanScope;
  readonly #startedAt = performance.now();
  /** What the call's metrics carry: the conventions' required and recommended attributes. */
  readonly #metricAttributes: Attributes;

  constructor(scope: RunSpanScope, parentContext: Context, info: ModelCallStart, onEnd: (child: ChildSpan) => void) {
    const span = scope.tracer.startSpan(
      `${GEN_AI_OPERATION_CHAT} ${info.model}`,
      { kind: SpanKind.CLIENT, attributes: startAttributes(scope, info) },
      parentContext,
    );
    super(span, parentContext, onEnd, scope.content.sdkSpans ? undefined : suppressedTracing);
    this.#scope = scope;
    this.#metricAttributes = {
      [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_CHAT,
      [ATTR_GEN_AI_PROVIDER_NAME]: info.service,
      [ATTR_GEN_AI_REQUEST_MODEL]: info.model,
    };
  }

  end(info: ModelCallEnd): void {
    this.finish(() => {
      this.#record({ usage: info.usage, responseModel: info.responseModel });
      this.span.setAttributes(responseAttributes(info));
      const { content } = this.#scope;
      if (content.openInference) this.span.setAttributes(openInferenceUsage(info.usage));
      const output = content.captureContent ? info.output?.() : undefined;
      if (output === undefined) return;
      const messages = chatOutputMessages(output, info.rawFinishReason ?? info.finishReason);
      this.span.setAttribute(ATTR_GEN_AI_OUTPUT_MESSAGES, contentJson(content, messages));
      if (content.openInference) this.span.setAttributes(openInferenceResponse(content, messages));
    });
  }

  override fail(error: Error): void {
    this.finish(() => {
      this.#record({ error });
      this.recordFailure(error);
    });
  }

  #record(outcome: { usage?: Usage | undefined; responseModel?: string | undefined; error?: Error }): void {
    const attributes =
      outcome.responseModel === undefined
        ? this.#metricAttributes
        : { ...this.#metricAttributes, [ATTR_GEN_AI_RESPONSE_MODEL]: outcome.responseModel };
    this.#scope.metrics.modelCall(attributes, (performance.now() - this.#startedAt) / 1_000, outcome);
  }
}

function startAttributes(scope: RunSpanScope, info: ModelCallStart): Attributes {
  const { content } = scope;
  const attributes: Attributes = {
    [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_CHAT,
    [ATTR_GEN_AI_PROVIDER_NAME]: info.service,
    [ATTR_GEN_AI_REQUEST_MODEL]: info.model,
    [ATTR_INTERLUDE_PROVIDER_API]: info.provider,
    [ATTR_GEN_AI_CONVERSATION_ID]: scope.conversationId,
    ...requestAttributes(info),
    ...(content.openInference && {
      ...openInferenceKind(OI_KIND_LLM, scope.conversationId),
      ...openInferenceModel(info),
    }),
  };
  const request = content.captureContent ? readChatRequest(info.content) : undefined;
  if (request === undefined) return attributes;
  return {
    ...attributes,
    ...chatInputAttributes(content, request),
    ...(content.openInference && openInferenceRequest(content, request)),
  };
}

/** Response attributes; the provider's own stop reason is the GenAI finish reason when known. */
function responseAttributes(info: ModelCallEnd): Attributes {
  return {
    ...(info.responseId === undefined ? {} : { [ATTR_GEN_AI_RESPONSE_ID]: info.responseId }),
    ...(info.responseModel === undefined ? {} : { [ATTR_GEN_AI_RESPONSE_MODEL]: info.responseModel }),
    [ATTR_GEN_AI_RESPONSE_FINISH_REASONS]: [info.rawFinishReason ?? info.finishReason],
    [ATTR_INTERLUDE_FINISH_REASON]: info.finishReason,
    ...usageAttributes(info.usage),
  };
}

function usageAttributes(usage: Usage | undefined): Attributes {
  if (usage === undefined) return {};
  const attributes: Attributes = {};
  if (usage.inputTokens !== undefined) attributes[ATTR_GEN_AI_USAGE_INPUT_TOKENS] = usage.inputTokens;
  if (usage.outputTokens !== undefined) attributes[ATTR_GEN_AI_USAGE_OUTPUT_TOKENS] = usage.outputTokens;
  if (usage.cacheReadTokens !== undefined)
    attributes[ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS] = usage.cacheReadTokens;
  if (usage.cacheWriteTokens !== undefined) {
    attributes[ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS] = usage.cacheWriteTokens;
  }
  return attributes;
}
