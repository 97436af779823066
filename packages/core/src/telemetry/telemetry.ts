import type {
  FinishReason,
  ProviderMessage,
  RequestParameters,
  ToolSpec,
  Usage,
} from '../provider/provider-adapter.js';

/**
 * Lifecycle hooks that `@interlude/telemetry` turns into OpenTelemetry spans. Everything core
 * hands over is already scrubbed of secrets.
 */
export interface Telemetry {
  startGeneration(info: GenerationTraceInfo): GenerationTrace;
  /** The caller's active trace context, carried on jobs so a worker's spans join the caller's trace. */
  currentTraceparent?(): string | undefined;
  /** The conversation of the generation running in the caller's context, carried on the jobs it enqueues. */
  currentConversationId?(): string | undefined;
}

export interface GenerationTraceInfo {
  agent: string;
  action: string;
  generationId: string;
  /**
   * The agent's `conversationId(params)`, else the conversation the generation inherited when it
   * started (its job's, or the generation it ran inside's: the checkpoint carries it to a resume);
   * a resume always has one (the generation id at least). Without it the telemetry uses the
   * enclosing generation's (a delegation's first run), else the generation id.
   */
  conversationId?: string | undefined;
  provider: string;
  model: string;
  resumed: boolean;
  /** The paused run's trace context (from the checkpoint): the new root links to it. */
  linkedTraceparent?: string | undefined;
  /** The caller's trace context (a job's NATS headers): the new root becomes its child. */
  parentTraceparent?: string | undefined;
  /**
   * The generation's secret answers, as a scrubber that grows while it runs: for spans that do
   * not come from these hooks (an instrumented library a tool calls writes to the active span),
   * which the telemetry scrubs before export.
   */
  secrets?: { readonly isEmpty: boolean; text(value: string): string } | undefined;
  /**
   * The run's prompt, scrubbed, for content capture: called only by a telemetry that records
   * content, so a run traced without it never copies its conversation.
   */
  content?: (() => { instructions: string | undefined; input: string }) | undefined;
}

export interface GenerationTrace {
  /** W3C traceparent of the root span, stored in the checkpoint. */
  readonly traceparent: string | undefined;
  /** Runs `body` with the root span active, so SDK calls and nested generations nest under it. */
  runInContext<T>(body: () => T): T;
  startModelCall(info: ModelCallInfo): ModelCallTrace;
  startToolCall(info: { toolName: string; toolCallId: string; arguments: unknown }): ToolCallTrace;
  end(outcome: GenerationOutcome): void;
}

/** What core knows when a model call starts. */
export interface ModelCallInfo {
  provider: string;
  service: string;
  model: string;
  /** Whether the call streams (`gen_ai.request.stream`); core always says. */
  stream?: boolean | undefined;
  parameters?: RequestParameters | undefined;
  /** The request, scrubbed, called only by a telemetry that records content. */
  content?: (() => ModelCallContent) | undefined;
}

export interface ModelCallContent {
  instructions: string | undefined;
  /** Provider-native, as the adapter sends them. */
  messages: readonly ProviderMessage[];
  tools: readonly ToolSpec[];
}

export interface GenerationOutcome {
  status: 'completed' | 'awaiting_input' | 'tool_turns_exceeded' | 'failed';
  /** The final answer's text, scrubbed, called only by a telemetry that records content. */
  output?: (() => string) | undefined;
  error?: Error;
  /** A pause whose questions expire: when (the checkpoint's `input_expires_at`). */
  inputExpiresAt?: string;
}

export interface ModelCallTrace {
  runInContext<T>(body: () => T): T;
  end(info: {
    responseId?: string;
    responseModel?: string;
    finishReason: FinishReason;
    rawFinishReason?: string;
    usage?: Usage;
    /** The answer's messages (provider-native), scrubbed, called only by a telemetry that records content. */
    output?: () => readonly ProviderMessage[];
  }): void;
  fail(error: Error): void;
}

export interface ToolCallTrace {
  runInContext<T>(body: () => T): T;
  /** `awaitingInput` when the call asked a question or waits on approval instead of finishing. */
  end(info: { result?: unknown; isError?: boolean; awaitingInput?: boolean }): void;
  fail(error: Error): void;
}
