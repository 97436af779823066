import type { ProviderMessage, ToolCall, ToolResultMessage } from '@interlude/core/provider';
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionMessageParam,
  ChatCompletionToolMessageParam,
  ChatCompletionUserMessageParam,
} from 'openai/resources/chat/completions';
import type { ReplayedFields } from './openai-chat-reasoning-fields.js';

/** Which role carries the instructions. `developer` for OpenAI; some compatible servers only know `system`. */
export type OpenAIChatInstructionsRole = 'developer' | 'system';

/**
 * The opening user turn.
 *
 * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-messages
 */
export function convertUserText(text: string): ChatCompletionUserMessageParam[] {
  return [{ role: 'user', content: text }];
}

/** A stored conversation's earlier answer, replayed as a plain assistant message (`hasContext`). */
export function convertAssistantText(text: string): ChatCompletionAssistantMessageParam[] {
  return [{ role: 'assistant', content: text }];
}

/**
 * One `role: "tool"` message per result, in the order the model asked for the calls: Chat
 * Completions matches results to calls by `tool_call_id` and wants every call answered before the
 * next assistant turn.
 *
 * @see https://platform.openai.com/docs/guides/function-calling
 */
export function convertToolResults(results: readonly ToolResultMessage[]): ChatCompletionToolMessageParam[] {
  return results.map((result) => ({ role: 'tool', tool_call_id: result.toolCallId, content: result.output }));
}

/** One call of an assistant turn as it is stored: the call, its arguments as the model wrote them, its replayed fields. */
export interface StoredChatToolCall {
  call: ToolCall;
  rawArguments: string;
  /** A call's own fields the server needs back (Gemini's `extra_content`). */
  fields: ReplayedFields;
}

/**
 * The assistant turn as we store it and send it back: the fields the API accepts on input, plus
 * the reasoning fields the server itself sent (`REPLAYED_MESSAGE_FIELDS`), which compatible
 * servers need on the next request. Other extras of a response (`refusal`, `annotations`, vendor
 * fields) are left out, so they never break the next request.
 */
export function createAssistantMessage(
  text: string,
  calls: readonly StoredChatToolCall[],
  fields: ReplayedFields,
): ChatCompletionAssistantMessageParam {
  if (calls.length === 0) return { role: 'assistant', content: text, ...fields };
  return {
    role: 'assistant',
    content: text === '' ? null : text,
    ...fields,
    tool_calls: calls.map(({ call, rawArguments, fields: callFields }) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: rawArguments },
      ...callFields,
    })),
  };
}

/**
 * The messages of one request: the instructions, rendered now as a single leading message, then
 * the stored conversation. The instructions message is never stored, so a resumed generation
 * renders the current instructions exactly once.
 */
export function withInstructions(
  instructions: string | undefined,
  messages: readonly ProviderMessage[],
  role: OpenAIChatInstructionsRole,
): ChatCompletionMessageParam[] {
  const conversation = messages as ChatCompletionMessageParam[];
  if (instructions === undefined || instructions === '') return [...conversation];
  return [{ role, content: instructions }, ...conversation];
}
