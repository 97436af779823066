import type {
  GenerationOutcome,
  GenerationTrace,
  GenerationTraceInfo,
  ModelCallTrace,
  ToolCallTrace,
} from '@interlude/core/internal';
import {
  type Attributes,
  type Context,
  isSpanContextValid,
  type Link,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { currentContext, runWithContext } from './active-context.js';
import type { ChildSpan } from './child-span.js';
import { conversationIn, withConversation } from './conversation-context.js';
import { toSystemInstructions } from './genai-messages.js';
import type { GenAiMetrics } from './genai-metrics.js';
import { ModelCallSpan, type ModelCallStart } from './model-call-span.js';
import { openInferenceKind, openInferenceText } from './openinference.js';
import { OI_AGENT_NAME, OI_KIND_AGENT } from './openinference-names.js';
import { recordFailure } from './record-failure.js';
import type { RunSpanScope } from './run-span-scope.js';
import { scrubbingSaw, warnUnscrubbedSpans } from './secret-scrubbing-processor.js';
import {
  ATTR_AGENT_AWAITING_INPUT,
  ATTR_AGENT_INPUT_EXPIRES_AT,
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_OUTPUT_MESSAGES,
  ATTR_GEN_AI_SYSTEM_INSTRUCTIONS,
  ATTR_INTERLUDE_ACTION,
  ATTR_INTERLUDE_GENERATION_ID,
  ATTR_INTERLUDE_OUTCOME,
  ATTR_INTERLUDE_RESUMED,
  GEN_AI_OPERATION_INVOKE_AGENT,
} from './semconv.js';
import { type ContentSettings, contentJson, rootInputMessages, rootOutputMessages } from './span-content.js';
import { rememberSecrets, withSecrets } from './span-secrets.js';
import { ToolCallSpan, type ToolCallStart } from './tool-call-span.js';
import { formatTraceparent, parseTraceparent } from './traceparent.js';

/** What every span of one `openTelemetry()` instance shares. */
export interface SpanSettings {
  tracer: Tracer;
  captureContent: boolean;
  openInference: boolean;
  sdkSpans: boolean;
  metrics: GenAiMetrics;
}

/**
 * The `invoke_agent <agent>` root span of one run of a generation. A run that resumes a
 * checkpoint is a new root, linked to the paused run's root: the two runs can be hours and
 * processes apart, so a parent/child relation would leave a trace open for hours; a link is
 * what the conventions use for "caused by". A job's caller trace (NATS headers) is a real
 * parent, since the caller waits on the work it enqueued.
 */
export class GenerationSpan implements GenerationTrace {
  readonly #scope: RunSpanScope;
  readonly #span: Span;
  readonly #context: Context;
  readonly #openChildren = new Set<ChildSpan>();
  readonly #secrets: GenerationTraceInfo['secrets'];
  /** Whether `secretScrubbingProcessor()` is in the provider that made this span (or it records nothing). */
  readonly #scrubbedOnExport: boolean;
  #ended = false;

  constructor(settings: SpanSettings, info: GenerationTraceInfo) {
    const parentContext = parentContextFor(info);
    const conversationId = info.conversationId ?? conversationIn(parentContext) ?? info.generationId;
    const secrets = info.secrets;
    this.#scope = {
      tracer: settings.tracer,
      metrics: settings.metrics,
      conversationId,
      content: {
        captureContent: settings.captureContent,
        openInference: settings.openInference,
        sdkSpans: settings.sdkSpans,
        scrub: (text) => (secrets === undefined || secrets.isEmpty ? text : secrets.text(text)),
      },
    };
    this.#span = settings.tracer.startSpan(
      `${GEN_AI_OPERATION_INVOKE_AGENT} ${info.agent}`,
      {
        kind: SpanKind.INTERNAL,
        attributes: { ...rootAttributes(info, conversationId), ...rootContentAttributes(this.#scope, info) },
        links: linksFor(info),
      },
      parentContext,
    );
    this.#secrets = info.secrets;
    // A span that records nothing exports nothing: only a recording one needs the processor.
    this.#scrubbedOnExport = !this.#span.isRecording() || scrubbingSaw(this.#span);
    // The root starts in its caller's context; its own secrets join what the processor noted.
    if (info.secrets !== undefined) rememberSecrets(this.#span, [info.secrets]);
    this.#context = withConversation(
      withSecrets(trace.setSpan(parentContext, this.#span), info.secrets),
      conversationId,
    );
  }

  get traceparent(): string | undefined {
    const spanContext = this.#span.spanContext();
    return isSpanContextValid(spanContext) ? formatTraceparent(spanContext) : undefined;
  }

  runInContext<T>(body: () => T): T {
    return runWithContext(this.#context, body);
  }

  startModelCall(info: ModelCallStart): ModelCallTrace {
    return this.#track(new ModelCallSpan(this.#scope, this.#context, info, this.#forget));
  }

  startToolCall(info: ToolCallStart): ToolCallTrace {
    return this.#track(new ToolCallSpan(this.#scope, this.#context, info, this.#forget));
  }

  /** Ends the root, after ending any call span core left open, so nothing outlives the run. */
  end(outcome: GenerationOutcome): void {
    if (this.#ended) return;
    this.#ended = true;
    for (const child of [...this.#openChildren]) child.abandon();
    this.#span.setAttribute(ATTR_INTERLUDE_OUTCOME, outcome.status);
    this.#span.setAttributes(rootOutputAttributes(this.#scope.content, outcome));
    if (outcome.status === 'awaiting_input') this.#span.setAttribute(ATTR_AGENT_AWAITING_INPUT, true);
    if (outcome.inputExpiresAt !== undefined)
      this.#span.setAttribute(ATTR_AGENT_INPUT_EXPIRES_AT, outcome.inputExpiresAt);
    if (outcome.error !== undefined) recordFailure(this.#span, outcome.error);
    else if (outcome.status === 'failed') this.#span.setStatus({ code: SpanStatusCode.ERROR });
    this.#span.end();
    if (!this.#scrubbedOnExport && this.#secrets?.isEmpty === false) warnUnscrubbedSpans();
  }

  #track<T extends ChildSpan>(child: T): T {
    if (!this.#ended) this.#openChildren.add(child);
    return child;
  }

  readonly #forget = (child: ChildSpan): void => {
    this.#openChildren.delete(child);
  };
}

function rootAttributes(info: GenerationTraceInfo, conversationId: string): Attributes {
  return {
    [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_INVOKE_AGENT,
    [ATTR_GEN_AI_AGENT_NAME]: info.agent,
    [ATTR_GEN_AI_CONVERSATION_ID]: conversationId,
    [ATTR_INTERLUDE_ACTION]: info.action,
    [ATTR_INTERLUDE_GENERATION_ID]: info.generationId,
    ...(info.resumed ? { [ATTR_INTERLUDE_RESUMED]: true } : {}),
  };
}

/** The generation's input (the action's message) and instructions, with content capture; OpenInference's names. */
function rootContentAttributes(scope: RunSpanScope, info: GenerationTraceInfo): Attributes {
  const { content } = scope;
  const attributes: Attributes = content.openInference
    ? { ...openInferenceKind(OI_KIND_AGENT, scope.conversationId), [OI_AGENT_NAME]: info.agent }
    : {};
  const prompt = content.captureContent ? info.content?.() : undefined;
  if (prompt === undefined) return attributes;
  attributes[ATTR_GEN_AI_INPUT_MESSAGES] = contentJson(content, rootInputMessages(prompt.input));
  if (prompt.instructions !== undefined)
    attributes[ATTR_GEN_AI_SYSTEM_INSTRUCTIONS] = contentJson(content, toSystemInstructions(prompt.instructions));
  if (content.openInference) Object.assign(attributes, openInferenceText('input', content, prompt.input));
  return attributes;
}

/** The final answer of a run that finished (a paused or failed run has none), with content capture. */
function rootOutputAttributes(content: ContentSettings, outcome: GenerationOutcome): Attributes {
  const finished = outcome.status === 'completed' || outcome.status === 'tool_turns_exceeded';
  const output = content.captureContent && finished ? outcome.output?.() : undefined;
  if (output === undefined) return {};
  return {
    [ATTR_GEN_AI_OUTPUT_MESSAGES]: contentJson(content, rootOutputMessages(output, outcome.status)),
    ...(content.openInference && openInferenceText('output', content, output)),
  };
}

/** A job's caller becomes the parent; otherwise whatever is active (a delegating tool, a request). */
function parentContextFor(info: GenerationTraceInfo): Context {
  const caller = parseTraceparent(info.parentTraceparent);
  if (caller !== undefined) return trace.setSpanContext(ROOT_CONTEXT, caller);
  return currentContext();
}

function linksFor(info: GenerationTraceInfo): Link[] {
  const paused = parseTraceparent(info.linkedTraceparent);
  return paused === undefined ? [] : [{ context: paused }];
}
