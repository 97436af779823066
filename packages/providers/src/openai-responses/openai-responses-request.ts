import type { ModelRequest } from '@interlude/core/provider';
import type { ResponseCreateParamsBase, ResponseIncludable, ResponseInput } from 'openai/resources/responses/responses';
import type { ReasoningEffort } from 'openai/resources/shared';
import { prepareOpenAIResponsesTools } from './openai-responses-prepare-tools.js';

/** Request settings an `openaiResponses()` adapter adds to every call. */
export interface OpenAIResponsesSettings {
  /**
   * Whether OpenAI keeps the response. With `false` nothing is kept server-side, so the adapter
   * asks for `reasoning.encrypted_content` and the checkpoint carries reasoning itself.
   */
  store?: boolean;
  /**
   * With `store: false`, ask for `reasoning.encrypted_content` so reasoning survives a pause.
   * Default true; turn it off for models without reasoning if an endpoint refuses the `include`.
   */
  encryptedReasoning?: boolean;
  reasoning?: { effort?: ReasoningEffort; summary?: 'auto' | 'concise' | 'detailed' };
  temperature?: number;
  maxOutputTokens?: number;
  parallelToolCalls?: boolean;
  /** Extra `include` values (`reasoning.encrypted_content` is added when `store` is false). */
  include?: ResponseIncludable[];
  /** Extra body fields, for options this adapter does not name. */
  extraBody?: Record<string, unknown>;
}

/**
 * Builds the Responses body of one call: the stored items as `input` (reasoning and function
 * calls exactly as they came), the instructions in `instructions` (never an item), tools, tool
 * choice and settings. Stateless: no `previous_response_id`, so a checkpoint resumes anywhere.
 *
 * @see https://platform.openai.com/docs/api-reference/responses/create
 */
export function buildOpenAIResponsesRequest(
  model: string,
  request: ModelRequest,
  settings: OpenAIResponsesSettings,
  stream: boolean,
): ResponseCreateParamsBase {
  const body: ResponseCreateParamsBase = {
    model,
    input: [...request.messages] as ResponseInput,
    ...prepareOpenAIResponsesTools(request.tools, request.toolChoice),
  };
  if (request.instructions !== undefined && request.instructions !== '') body.instructions = request.instructions;
  if (settings.parallelToolCalls !== undefined && request.tools.length > 0) {
    body.parallel_tool_calls = settings.parallelToolCalls;
  }
  if (settings.store !== undefined) body.store = settings.store;
  const include = [...(settings.include ?? [])];
  const wantsEncrypted = settings.store === false && settings.encryptedReasoning !== false;
  if (wantsEncrypted && !include.includes('reasoning.encrypted_content')) {
    include.push('reasoning.encrypted_content');
  }
  if (include.length > 0) body.include = include;
  if (settings.reasoning !== undefined) body.reasoning = settings.reasoning;
  if (settings.temperature !== undefined) body.temperature = settings.temperature;
  if (settings.maxOutputTokens !== undefined) body.max_output_tokens = settings.maxOutputTokens;
  if (stream) body.stream = true;
  return { ...body, ...settings.extraBody } as ResponseCreateParamsBase;
}
