import { z } from 'zod';

const inputRequestShape = z
  .looseObject({
    kind: z.enum(['confirm', 'text', 'choice', 'secret']),
    prompt: z.string(),
    tool_call_id: z.string(),
    options: z.array(z.unknown()).min(1).optional(),
    schema: z.record(z.string(), z.unknown()).optional(),
    expires_at: z.string().optional(),
  })
  .refine((request) => request.kind !== 'choice' || request.options !== undefined, {
    message: 'a choice request needs its options',
  });

/**
 * Every field's type, with readable messages for a checkpoint that is malformed. The fields left
 * out at their default are optional (`withCheckpointDefaults` fills them in).
 */
export const checkpointShape = z.object({
  version: z.number(),
  service: z.string(),
  provider: z.string(),
  model: z.string(),
  action_name: z.string(),
  tool_turns: z.number().int().nonnegative(),
  tool_choice_cleared: z.boolean().optional(),
  messages: z.array(z.unknown()),
  tool_call_turn_size: z.number().int().optional(),
  completed_results: z.record(
    z.string(),
    z.object({ tool_name: z.string(), result: z.unknown(), is_error: z.boolean().exactOptional() }),
  ),
  input_requests: z.array(inputRequestShape),
  approval_tool_calls: z.array(z.string()).optional(),
  approved_tool_calls: z.array(z.string()).optional(),
  mcp_tool_calls: z.array(z.string()).optional(),
  // Each delegated checkpoint is checked in full when its own generation resumes.
  delegations: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
  agent: z.string(),
  generation_id: z.string().min(1),
  claim_slot: z.number().int().nonnegative(),
  traceparent: z.string().optional(),
  conversation_id: z
    .string()
    .min(1)
    .optional()
    .describe(
      "The conversation (`gen_ai.conversation.id`) the generation inherited when it started, which its resume joins; absent when it is the agent's own or the generation id.",
    ),
  audience: z.string().optional(),
  expires_at: z.string().optional(),
  input_expires_at: z.string().optional(),
  key_id: z.string().optional(),
  signature: z.string().optional(),
});
