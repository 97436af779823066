import type { ModelCallTrace } from '@interlude/core/internal';
import type { Usage } from '@interlude/core/provider';
import { type Attributes, type Context, SpanKind, type Tracer } from '@opentelemetry/api';
import { ChildSpan } from './child-span.js';
import {
  ATTR_GEN_AI_OPERATION_NAME,
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

/** What core knows when a model call starts: vendor, wire API and requested model. */
export interface ModelCallStart {
  provider: string;
  service: string;
  model: string;
}

type ModelCallEnd = Parameters<ModelCallTrace['end']>[0];

/**
 * The `chat <model>` span of one model call: a CLIENT span, since it is a request to a remote
 * API; the SDK's own HTTP span (when instrumented) nests under it through `runInContext`.
 */
export class ModelCallSpan extends ChildSpan implements ModelCallTrace {
  constructor(
    tracer: Tracer,
    parentContext: Context,
    info: ModelCallStart,
    shared: Attributes,
    onEnd: (child: ChildSpan) => void,
  ) {
    const span = tracer.startSpan(
      `${GEN_AI_OPERATION_CHAT} ${info.model}`,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_CHAT,
          [ATTR_GEN_AI_PROVIDER_NAME]: info.service,
          [ATTR_GEN_AI_REQUEST_MODEL]: info.model,
          [ATTR_INTERLUDE_PROVIDER_API]: info.provider,
          ...shared,
        },
      },
      parentContext,
    );
    super(span, parentContext, onEnd);
  }

  end(info: ModelCallEnd): void {
    this.finish(() => this.span.setAttributes(responseAttributes(info)));
  }
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
