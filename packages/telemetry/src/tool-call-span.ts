import type { ToolCallTrace } from '@interlude/core/internal';
import { type Attributes, type Context, SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import { ChildSpan } from './child-span.js';
import { toContentAttribute } from './content-attribute.js';
import {
  ATTR_AGENT_AWAITING_INPUT,
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_NAME,
  ERROR_TYPE_TOOL_ERROR,
  GEN_AI_OPERATION_EXECUTE_TOOL,
} from './semconv.js';

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
  readonly #captureContent: boolean;

  constructor(
    tracer: Tracer,
    parentContext: Context,
    info: ToolCallStart,
    { captureContent, shared }: { captureContent: boolean; shared: Attributes },
    onEnd: (child: ChildSpan) => void,
  ) {
    const argumentsAttribute = captureContent ? toContentAttribute(info.arguments) : undefined;
    const span = tracer.startSpan(
      `${GEN_AI_OPERATION_EXECUTE_TOOL} ${info.toolName}`,
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_EXECUTE_TOOL,
          [ATTR_GEN_AI_TOOL_NAME]: info.toolName,
          [ATTR_GEN_AI_TOOL_CALL_ID]: info.toolCallId,
          ...shared,
          ...(argumentsAttribute === undefined ? {} : { [ATTR_GEN_AI_TOOL_CALL_ARGUMENTS]: argumentsAttribute }),
        },
      },
      parentContext,
    );
    super(span, parentContext, onEnd);
    this.#captureContent = captureContent;
  }

  end(info: ToolCallEnd): void {
    this.finish(() => {
      if (info.awaitingInput === true) this.span.setAttribute(ATTR_AGENT_AWAITING_INPUT, true);
      const result = this.#captureContent ? toContentAttribute(info.result) : undefined;
      if (result !== undefined) this.span.setAttribute(ATTR_GEN_AI_TOOL_CALL_RESULT, result);
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
