import type { ModelCallContent, ModelCallInfo } from '@interlude/core/internal';
import type { ProviderMessage } from '@interlude/core/provider';
import type { Attributes } from '@opentelemetry/api';
import {
  type GenAiMessage,
  toGenAiMessages,
  toGenAiOutput,
  toSystemInstructions,
  toToolDefinitions,
} from './genai-messages.js';
import {
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_REQUEST_MAX_TOKENS,
  ATTR_GEN_AI_REQUEST_STREAM,
  ATTR_GEN_AI_REQUEST_TEMPERATURE,
  ATTR_GEN_AI_REQUEST_TOP_K,
  ATTR_GEN_AI_REQUEST_TOP_P,
  ATTR_GEN_AI_SYSTEM_INSTRUCTIONS,
  ATTR_GEN_AI_TOOL_DEFINITIONS,
} from './semconv.js';

/**
 * What one generation's spans record beyond the conventions' required names: content when the
 * user asked for it, OpenInference names when they asked for those. `scrub` is the generation's
 * secret scrubber, run over every JSON text written, after core scrubbed the values themselves.
 */
export interface ContentSettings {
  captureContent: boolean;
  openInference: boolean;
  /** Keep the spans an SDK or HTTP instrumentation starts inside a model call (off: suppressed). */
  sdkSpans: boolean;
  scrub: (text: string) => string;
}

/** A content value as the JSON text an attribute holds, scrubbed. */
export function contentJson(settings: ContentSettings, value: unknown): string {
  return settings.scrub(JSON.stringify(value) ?? 'null');
}

/** The request of one model call, read once, as GenAI messages. */
export interface ChatRequestContent {
  instructions: string | undefined;
  messages: GenAiMessage[];
  tools: ModelCallContent['tools'];
}

export function readChatRequest(content: ModelCallInfo['content']): ChatRequestContent | undefined {
  const request = content?.();
  if (request === undefined) return undefined;
  return { instructions: request.instructions, messages: toGenAiMessages(request.messages), tools: request.tools };
}

/** `gen_ai.request.stream` and the parameters sent, on every `chat` span. */
export function requestAttributes(info: ModelCallInfo): Attributes {
  const parameters = info.parameters ?? {};
  return {
    ...(info.stream !== undefined && { [ATTR_GEN_AI_REQUEST_STREAM]: info.stream }),
    ...(parameters.maxTokens !== undefined && { [ATTR_GEN_AI_REQUEST_MAX_TOKENS]: parameters.maxTokens }),
    ...(parameters.temperature !== undefined && { [ATTR_GEN_AI_REQUEST_TEMPERATURE]: parameters.temperature }),
    ...(parameters.topP !== undefined && { [ATTR_GEN_AI_REQUEST_TOP_P]: parameters.topP }),
    ...(parameters.topK !== undefined && { [ATTR_GEN_AI_REQUEST_TOP_K]: parameters.topK }),
  };
}

/** The GenAI content of a model call's request: messages, instructions, tools. */
export function chatInputAttributes(settings: ContentSettings, request: ChatRequestContent): Attributes {
  return {
    [ATTR_GEN_AI_INPUT_MESSAGES]: contentJson(settings, request.messages),
    ...(request.instructions !== undefined && {
      [ATTR_GEN_AI_SYSTEM_INSTRUCTIONS]: contentJson(settings, toSystemInstructions(request.instructions)),
    }),
    ...(request.tools.length > 0 && {
      [ATTR_GEN_AI_TOOL_DEFINITIONS]: contentJson(settings, toToolDefinitions(request.tools)),
    }),
  };
}

export function chatOutputMessages(output: readonly ProviderMessage[], finishReason: string): GenAiMessage[] {
  return toGenAiOutput(output, finishReason);
}

/** The generation's own input on its root: the action's message as a user turn, and the instructions. */
export function rootInputMessages(input: string): GenAiMessage[] {
  return [{ role: 'user', parts: [{ type: 'text', content: input }] }];
}

/** The generation's final answer on its root, with the run's outcome as its finish reason. */
export function rootOutputMessages(output: string, outcome: string): GenAiMessage[] {
  return [{ role: 'assistant', parts: [{ type: 'text', content: output }], finish_reason: outcome }];
}
