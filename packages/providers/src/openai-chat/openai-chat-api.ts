import { z } from 'zod';

/**
 * Zod schemas of the Chat Completions JSON we read back. They are loose on purpose: compatible
 * endpoints (Azure, OpenRouter, Ollama) add fields of their own, and we only insist on the parts
 * the loop depends on, so a malformed answer fails with a clear message instead of deep inside
 * the loop.
 *
 * @see https://platform.openai.com/docs/api-reference/chat/object
 */
export const openaiChatToolCallSchema = z.looseObject({
  id: z.string(),
  type: z.literal('function').optional(),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
  /** Gemini's compatible endpoint: `{ google: { thought_signature } }`, needed back on the call. */
  extra_content: z.record(z.string(), z.unknown()).nullish(),
});

/** The reasoning fields compatible servers put beside `content` (see `REPLAYED_MESSAGE_FIELDS`). */
const reasoningFields = {
  reasoning_content: z.string().nullish(),
  reasoning: z.string().nullish(),
  reasoning_details: z.array(z.looseObject({})).nullish(),
  extra_content: z.record(z.string(), z.unknown()).nullish(),
};

export const openaiChatUsageSchema = z.looseObject({
  prompt_tokens: z.number().optional(),
  completion_tokens: z.number().optional(),
  prompt_tokens_details: z.looseObject({ cached_tokens: z.number().nullish() }).nullish(),
});

export const openaiChatResponseSchema = z.looseObject({
  id: z.string().optional(),
  model: z.string().optional(),
  choices: z
    .array(
      z.looseObject({
        finish_reason: z.string().nullish(),
        message: z.looseObject({
          content: z.string().nullish(),
          ...reasoningFields,
          tool_calls: z.array(openaiChatToolCallSchema).nullish(),
        }),
      }),
    )
    .min(1),
  usage: openaiChatUsageSchema.nullish(),
});

/** One streamed chunk. Tool calls arrive in pieces keyed by `index`. */
export const openaiChatChunkSchema = z.looseObject({
  id: z.string().optional(),
  model: z.string().optional(),
  choices: z
    .array(
      z.looseObject({
        index: z.number().optional(),
        finish_reason: z.string().nullish(),
        delta: z
          .looseObject({
            content: z.string().nullish(),
            ...reasoningFields,
            tool_calls: z
              .array(
                z.looseObject({
                  index: z.number().optional(),
                  id: z.string().nullish(),
                  function: z.looseObject({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
                  extra_content: z.record(z.string(), z.unknown()).nullish(),
                }),
              )
              .nullish(),
          })
          .nullish(),
      }),
    )
    .optional(),
  usage: openaiChatUsageSchema.nullish(),
});

/** The assistant message as we store it in checkpoints and send it back. */
export const openaiChatAssistantMessageSchema = z.looseObject({
  role: z.literal('assistant'),
  content: z.string().nullish(),
  tool_calls: z.array(openaiChatToolCallSchema).optional(),
});

export type OpenAIChatResponse = z.infer<typeof openaiChatResponseSchema>;
export type OpenAIChatAssistantMessage = z.infer<typeof openaiChatAssistantMessageSchema>;
export type OpenAIChatChunk = z.infer<typeof openaiChatChunkSchema>;
export type OpenAIChatUsage = z.infer<typeof openaiChatUsageSchema>;
