import { z } from 'zod';

/**
 * Zod schemas of the Messages API JSON the adapter reads back. The SDK does not validate
 * what it receives, so a malformed answer would otherwise surface far away as a crash on
 * `undefined`; these give one clear error at the boundary. Objects are loose: the adapter
 * stores the blocks exactly as received (thinking signatures, citations, server tool results),
 * and validation must never strip a field it does not know.
 *
 * @see https://docs.anthropic.com/en/api/messages
 */
export const anthropicToolUseBlockSchema = z.looseObject({
  type: z.literal('tool_use'),
  id: z.string(),
  name: z.string(),
  input: z.unknown(),
});

export const anthropicContentBlockSchema = z.looseObject({ type: z.string() });

export const anthropicUsageSchema = z.looseObject({
  input_tokens: z.number().nullish(),
  output_tokens: z.number().nullish(),
  cache_creation_input_tokens: z.number().nullish(),
  cache_read_input_tokens: z.number().nullish(),
});

/** The container a code-execution tool ran in; its id is sent back so the files stay reachable. */
export const anthropicContainerSchema = z.looseObject({
  id: z.string(),
  expires_at: z.string().nullish(),
});

export const anthropicMessageSchema = z.looseObject({
  id: z.string().optional(),
  type: z.literal('message').optional(),
  role: z.literal('assistant').optional(),
  model: z.string().optional(),
  content: z.array(anthropicContentBlockSchema),
  stop_reason: z.string().nullish(),
  usage: anthropicUsageSchema.nullish(),
  container: anthropicContainerSchema.nullish(),
});

export type AnthropicMessage = z.infer<typeof anthropicMessageSchema>;
export type AnthropicContainer = z.infer<typeof anthropicContainerSchema>;
export type AnthropicUsage = z.infer<typeof anthropicUsageSchema>;

/** The error body of a failed request or an SSE `error` event. */
export const anthropicErrorBodySchema = z.looseObject({
  type: z.literal('error').optional(),
  error: z.looseObject({ type: z.string(), message: z.string().optional() }),
});
