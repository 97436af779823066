import type { ToolCallTrace } from '@interlude/core/internal';
import { type Context, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { ChildSpan } from './child-span.js';
import { toContentAttribute } from './content-attribute.js';
import { openInferenceKind, openInferenceToolValue } from './openinference.js';
import { OI_KIND_TOOL, OI_TOOL_NAME } from './openinference-names.js';
import type { RunSpanScope } from './run-span-scope.js';
import {
  ATTR_AGENT_AWAITING_INPUT,
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_NAME,
  ERROR_TYPE_TOOL_ERROR,
  GEN_AI_OPERATION_EXECUTE_TOOL,
} from './semconv.js';
import type { ContentSettings } from './span-content.js';

/** What core knows when a tool call starts; `arguments` are already scrubbed of secrets. */
export interface ToolCallStart {
  toolName: string;
  toolCallId: string;
  arguments: unknown;
}

type ToolCallEnd = Parameters<ToolCallTrace['end']>[0];

/**
 * The `execute_tool <tool>` span of one call. Arguments and result are recorded only when the
 * user switched `captureContent` on: they are the user's data, scrubbed of secrets by core but
 * still personal. A call that asked a person ends with `agent.awaiting_input = true`.
 */
export class ToolCallSpan extends ChildSpan implements ToolCallTrace {
  readonly #content: ContentSettings;

  constructor(scope: RunSpanScope, parentContext: Context, info: ToolCallStart, onEnd: (child: ChildSpan) => void) {
    const { captureContent, openInference, scrub } = scope.content;
    const written = captureContent ? toContentAttribute(info.arguments) : undefined;
    const argumentsAttribute = written === undefined ? undefined : scrub(written);
    const span = scope.tracer.startSpan(
      `${GEN_AI_OPERATION_EXECUTE_TOOL} ${info.toolName}`,
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_EXECUTE_TOOL,
          [ATTR_GEN_AI_TOOL_NAME]: info.toolName,
          [ATTR_GEN_AI_TOOL_CALL_ID]: info.toolCallId,
          [ATTR_GEN_AI_CONVERSATION_ID]: scope.conversationId,
          ...(argumentsAttribute === undefined ? {} : { [ATTR_GEN_AI_TOOL_CALL_ARGUMENTS]: argumentsAttribute }),
          ...(openInference && {
            ...openInferenceKind(OI_KIND_TOOL, scope.conversationId),
            [OI_TOOL_NAME]: info.toolName,
            ...(argumentsAttribute !== undefined && openInferenceToolValue('input', argumentsAttribute)),
          }),
        },
      },
      parentContext,
    );
    super(span, parentContext, onEnd);
    this.#content = scope.content;
  }

  end(info: ToolCallEnd): void {
    this.finish(() => {
      if (info.awaitingInput === true) this.span.setAttribute(ATTR_AGENT_AWAITING_INPUT, true);
      const { captureContent, openInference, scrub } = this.#content;
      const written = captureContent ? toContentAttribute(info.result) : undefined;
      if (written !== undefined) {
        const result = scrub(written);
        this.span.setAttribute(ATTR_GEN_AI_TOOL_CALL_RESULT, result);
        if (openInference) this.span.setAttributes(openInferenceToolValue('output', result));
      }
      if (info.isError === true) {
        this.span.setAttribute(ATTR_ERROR_TYPE, ERROR_TYPE_TOOL_ERROR);
        this.span.setStatus({ code: SpanStatusCode.ERROR, message: errorMessageOf(info.result) });
      }
    });
  }
}

/** The `{ "error": "<message>" }` core gives the model for a failed call, as the status message. */
function errorMessageOf(result: unknown): string {
  if (typeof result === 'object' && result !== null && 'error' in result && typeof result.error === 'string') {
    return result.error;
  }
  return typeof result === 'string' ? result : 'tool returned an error';
}
