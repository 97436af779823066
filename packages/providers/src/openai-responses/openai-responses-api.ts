import { z } from 'zod';

/**
 * Zod schemas of the Responses JSON we read back: the response object, the items we look into
 * and the stream events we act on. Loose on purpose: items are stored verbatim and sent back as
 * they came, so we only insist on what the loop reads.
 *
 * @see https://platform.openai.com/docs/api-reference/responses/object
 */
export const openaiResponsesFunctionCallSchema = z.looseObject({
  type: z.literal('function_call'),
  // Compatible servers have sent it empty or not at all; the adapter makes one up then.
  call_id: z.string().nullish(),
  name: z.string(),
  arguments: z.string(),
});

export const openaiResponsesMessageItemSchema = z.looseObject({
  type: z.literal('message'),
  role: z.literal('assistant'),
  content: z.array(z.looseObject({ type: z.string(), text: z.string().optional() })),
});

export const openaiResponsesUsageSchema = z.looseObject({
  input_tokens: z.number().optional(),
  output_tokens: z.number().optional(),
  input_tokens_details: z.looseObject({ cached_tokens: z.number().nullish() }).nullish(),
});

export const openaiResponsesErrorSchema = z.looseObject({
  code: z.union([z.string(), z.number()]).nullish(),
  message: z.string().nullish(),
});

export const openaiResponsesResponseSchema = z.looseObject({
  id: z.string().optional(),
  model: z.string().optional(),
  status: z.string().nullish(),
  output: z.array(z.looseObject({ type: z.string() })),
  incomplete_details: z.looseObject({ reason: z.string().nullish() }).nullish(),
  error: openaiResponsesErrorSchema.nullish(),
  usage: openaiResponsesUsageSchema.nullish(),
});

/**
 * The stream events the adapter acts on, each checked only when its `type` says it is one of
 * them: other events (reasoning summary deltas, `in_progress`, tool-specific deltas whose shapes
 * vary) pass by unread.
 *
 * @see https://platform.openai.com/docs/api-reference/responses-streaming
 */
export const openaiResponsesStreamEventSchemas = {
  'response.output_text.delta': z.looseObject({ delta: z.string() }),
  'response.output_item.done': z.looseObject({ output_index: z.number(), item: z.looseObject({ type: z.string() }) }),
  'response.completed': z.looseObject({ response: z.looseObject({ output: z.array(z.unknown()).optional() }) }),
  'response.incomplete': z.looseObject({ response: z.looseObject({ output: z.array(z.unknown()).optional() }) }),
  'response.failed': z.looseObject({ response: z.looseObject({ error: openaiResponsesErrorSchema.nullish() }) }),
  error: openaiResponsesErrorSchema,
} as const;

export type OpenAIResponsesStreamEventType = keyof typeof openaiResponsesStreamEventSchemas;

export type OpenAIResponsesResponse = z.infer<typeof openaiResponsesResponseSchema>;
export type OpenAIResponsesUsage = z.infer<typeof openaiResponsesUsageSchema>;
export type OpenAIResponsesItem = OpenAIResponsesResponse['output'][number];
