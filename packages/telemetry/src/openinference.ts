import type { Usage } from '@interlude/core/provider';
import type { Attributes } from '@opentelemetry/api';
import type { GenAiMessage, GenAiPart } from './genai-messages.js';
import { toToolDefinitions } from './genai-messages.js';
import {
  OI_INPUT_MIME_TYPE,
  OI_INPUT_VALUE,
  OI_LLM_INPUT_MESSAGES,
  OI_LLM_INVOCATION_PARAMETERS,
  OI_LLM_MODEL_NAME,
  OI_LLM_OUTPUT_MESSAGES,
  OI_LLM_PROVIDER,
  OI_LLM_SYSTEM,
  OI_LLM_TOKEN_COUNT_COMPLETION,
  OI_LLM_TOKEN_COUNT_PROMPT,
  OI_LLM_TOKEN_COUNT_PROMPT_DETAILS_CACHE_READ,
  OI_LLM_TOKEN_COUNT_PROMPT_DETAILS_CACHE_WRITE,
  OI_LLM_TOKEN_COUNT_TOTAL,
  OI_LLM_TOOLS,
  OI_MESSAGE_CONTENT,
  OI_MESSAGE_ROLE,
  OI_MESSAGE_TOOL_CALL_ID,
  OI_MESSAGE_TOOL_CALLS,
  OI_OUTPUT_MIME_TYPE,
  OI_OUTPUT_VALUE,
  OI_SESSION_ID,
  OI_SPAN_KIND,
  OI_TOOL_CALL_FUNCTION_ARGUMENTS,
  OI_TOOL_CALL_FUNCTION_NAME,
  OI_TOOL_CALL_ID,
  OI_TOOL_JSON_SCHEMA,
} from './openinference-names.js';
import type { ChatRequestContent, ContentSettings } from './span-content.js';
import { contentJson } from './span-content.js';

/** OpenInference attributes built from what our spans know (names in `openinference-names.ts`). */
const JSON_MIME = 'application/json';
const TEXT_MIME = 'text/plain';

/** On every span: the kind and the session (our conversation id). */
export function openInferenceKind(kind: string, conversationId: string): Attributes {
  return { [OI_SPAN_KIND]: kind, [OI_SESSION_ID]: conversationId };
}

/** The `invoke_agent` root's input text and its final answer. */
export function openInferenceText(direction: 'input' | 'output', settings: ContentSettings, text: string): Attributes {
  return direction === 'input'
    ? { [OI_INPUT_VALUE]: settings.scrub(text), [OI_INPUT_MIME_TYPE]: TEXT_MIME }
    : { [OI_OUTPUT_VALUE]: settings.scrub(text), [OI_OUTPUT_MIME_TYPE]: TEXT_MIME };
}

/** What an LLM span says without content: model, vendor, parameters. */
export function openInferenceModel(info: {
  service: string;
  model: string;
  parameters?: object | undefined;
}): Attributes {
  return {
    [OI_LLM_MODEL_NAME]: info.model,
    [OI_LLM_PROVIDER]: info.service,
    [OI_LLM_SYSTEM]: info.service,
    [OI_LLM_INVOCATION_PARAMETERS]: JSON.stringify(info.parameters ?? {}),
  };
}

export function openInferenceUsage(usage: Usage | undefined): Attributes {
  if (usage === undefined) return {};
  const attributes: Attributes = {};
  if (usage.inputTokens !== undefined) attributes[OI_LLM_TOKEN_COUNT_PROMPT] = usage.inputTokens;
  if (usage.outputTokens !== undefined) attributes[OI_LLM_TOKEN_COUNT_COMPLETION] = usage.outputTokens;
  if (usage.inputTokens !== undefined && usage.outputTokens !== undefined)
    attributes[OI_LLM_TOKEN_COUNT_TOTAL] = usage.inputTokens + usage.outputTokens;
  if (usage.cacheReadTokens !== undefined)
    attributes[OI_LLM_TOKEN_COUNT_PROMPT_DETAILS_CACHE_READ] = usage.cacheReadTokens;
  if (usage.cacheWriteTokens !== undefined)
    attributes[OI_LLM_TOKEN_COUNT_PROMPT_DETAILS_CACHE_WRITE] = usage.cacheWriteTokens;
  return attributes;
}

/** A model call's request: the flattened input messages (instructions first), the tools, and `input.value`. */
export function openInferenceRequest(settings: ContentSettings, request: ChatRequestContent): Attributes {
  const messages: GenAiMessage[] = [
    ...(request.instructions === undefined
      ? []
      : [{ role: 'system', parts: [{ type: 'text', content: request.instructions }] }]),
    ...request.messages,
  ];
  const attributes: Attributes = {
    ...flatMessages(settings, OI_LLM_INPUT_MESSAGES, messages),
    [OI_INPUT_VALUE]: contentJson(settings, { messages }),
    [OI_INPUT_MIME_TYPE]: JSON_MIME,
  };
  toToolDefinitions(request.tools).forEach(({ type, ...fn }, index) => {
    attributes[`${OI_LLM_TOOLS}.${index}.${OI_TOOL_JSON_SCHEMA}`] = contentJson(settings, { type, function: fn });
  });
  return attributes;
}

/** A model call's answer: the flattened output messages and `output.value`. */
export function openInferenceResponse(settings: ContentSettings, messages: GenAiMessage[]): Attributes {
  return {
    ...flatMessages(settings, OI_LLM_OUTPUT_MESSAGES, messages),
    [OI_OUTPUT_VALUE]: contentJson(settings, { messages }),
    [OI_OUTPUT_MIME_TYPE]: JSON_MIME,
  };
}

/** A tool span's arguments or result, as `input.value` / `output.value`. */
export function openInferenceToolValue(direction: 'input' | 'output', value: string): Attributes {
  return direction === 'input'
    ? { [OI_INPUT_VALUE]: value, [OI_INPUT_MIME_TYPE]: mimeOf(value) }
    : { [OI_OUTPUT_VALUE]: value, [OI_OUTPUT_MIME_TYPE]: mimeOf(value) };
}

function mimeOf(value: string): string {
  return value.startsWith('{') || value.startsWith('[') ? JSON_MIME : TEXT_MIME;
}

/**
 * `llm.input_messages.<i>.message.*`: role, text content, tool calls. A message holding several
 * tool results becomes one `tool` message per result, as OpenInference has one `tool_call_id` each.
 */
function flatMessages(settings: ContentSettings, prefix: string, messages: GenAiMessage[]): Attributes {
  const attributes: Attributes = {};
  let index = 0;
  for (const message of messages.flatMap(splitResults)) {
    const at = `${prefix}.${index}`;
    attributes[`${at}.${OI_MESSAGE_ROLE}`] = message.role;
    const text = textOf(message.parts);
    if (text !== undefined) attributes[`${at}.${OI_MESSAGE_CONTENT}`] = settings.scrub(text);
    let call = 0;
    for (const part of message.parts) {
      if (part.type === 'tool_call') {
        const tool = part as Extract<GenAiPart, { type: 'tool_call' }>;
        const callAt = `${at}.${OI_MESSAGE_TOOL_CALLS}.${call}`;
        attributes[`${callAt}.${OI_TOOL_CALL_ID}`] = tool.id;
        attributes[`${callAt}.${OI_TOOL_CALL_FUNCTION_NAME}`] = tool.name;
        attributes[`${callAt}.${OI_TOOL_CALL_FUNCTION_ARGUMENTS}`] = contentJson(settings, tool.arguments ?? {});
        call += 1;
      } else if (part.type === 'tool_call_response') {
        attributes[`${at}.${OI_MESSAGE_TOOL_CALL_ID}`] = String(part['id']);
      }
    }
    index += 1;
  }
  return attributes;
}

function splitResults(message: GenAiMessage): GenAiMessage[] {
  const results = message.parts.filter((part) => part.type === 'tool_call_response');
  if (results.length < 2) return [message];
  return results.map((part) => ({ role: 'tool', parts: [part] }));
}

/** Text parts joined, or a tool result's response as text; undefined when the message has neither. */
function textOf(parts: GenAiPart[]): string | undefined {
  const texts: string[] = [];
  for (const part of parts) {
    if (part.type === 'text') texts.push(String(part['content']));
    else if (part.type === 'tool_call_response') {
      const response = part['response'];
      texts.push(typeof response === 'string' ? response : (JSON.stringify(response) ?? ''));
    }
  }
  return texts.length === 0 ? undefined : texts.join('\n');
}
