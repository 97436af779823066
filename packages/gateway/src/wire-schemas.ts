import { jsonValueSchema, inputRequestSchema as questionSchema } from '@interlude/core/contract';
import { z } from 'zod';

/**
 * The gateway's bodies, in and out: snake_case JSON like everything Interlude sends across a
 * process. The OpenAPI document is generated from these (`openapi-document.ts`), and the routes
 * validate what they read with them, so the two cannot drift. They are registered in a registry of
 * the gateway's own: the contract's schemas (`@interlude/core/contract`) keep their ids apart.
 */
export const gatewaySchemas = z.registry<{ id: string }>();

/** Any JSON value (an answer, an option, metadata): the contract's, named in the document too. */
export const jsonSchema = jsonValueSchema.register(gatewaySchemas, { id: 'JsonValue' });

/** A question as the gateway lists it: the contract's question, bound to the call that asked. */
export const inputRequestSchema = questionSchema
  .extend({ tool_call_id: z.string(), tool_name: z.string() })
  .register(gatewaySchemas, { id: 'AskedInputRequest' });

export const pendingGenerationSchema = z
  .object({
    generation_id: z.string(),
    agent: z.string(),
    action: z.string(),
    input_requests: z.array(inputRequestSchema),
    asked_at: z.string(),
    expires_at: z.string().optional(),
  })
  .register(gatewaySchemas, { id: 'PendingGeneration' });

export const pendingListSchema = z
  .object({ pending: z.array(pendingGenerationSchema) })
  .register(gatewaySchemas, { id: 'PendingList' });

export const generationStatusSchema = z
  .enum(['running', 'awaiting_input', 'completed', 'failed', 'cancelled', 'tool_turns_exceeded'])
  .register(gatewaySchemas, { id: 'GenerationStatus' });

export const generationSchema = z
  .object({
    generation_id: z.string(),
    agent: z.string(),
    action: z.string(),
    status: generationStatusSchema,
    updated_at: z.string().describe('The time of its latest event'),
    input_requests: z.array(inputRequestSchema).optional().describe('When awaiting_input: what it asks'),
    text: z.string().optional().describe("When completed: the model's last text"),
    error: z
      .object({ name: z.string(), message: z.string(), code: z.string().optional() })
      .optional()
      .describe('When failed: the error, scrubbed of secrets'),
  })
  .register(gatewaySchemas, { id: 'Generation' });

export const answersRequestSchema = z
  .object({
    answers: z
      .record(z.string(), z.unknown())
      .refine((answers) => Object.keys(answers).length > 0, 'give at least one answer')
      .describe(
        'Answers by tool call id: true/false for a confirm, an option value for a choice, a value for text and secret; false declines any',
      ),
    answer_tokens: z
      .array(z.string())
      .max(100)
      .optional()
      .describe('Answer tokens for the calls answered, when more than the one in Authorization'),
  })
  .register(gatewaySchemas, { id: 'AnswersRequest' });

export const answersResponseSchema = z
  .object({
    generation_id: z.string(),
    resumed: z
      .enum(['queued', 'in_process'])
      .describe('queued: a worker resumes it; in_process: resumed by the gateway (secrets)'),
    job_id: z.string().optional(),
    status: z.string().optional().describe('in_process: how the resumed run stopped'),
  })
  .register(gatewaySchemas, { id: 'AnswersResponse' });

export const cancelRequestSchema = z
  .object({ reason: z.string().min(1).max(500).optional() })
  .register(gatewaySchemas, { id: 'CancelRequest' });

export const cancelResponseSchema = z
  .object({ generation_id: z.string(), cancelled: z.literal(true) })
  .register(gatewaySchemas, { id: 'CancelResponse' });

export const errorSchema = z
  .object({
    error: z.object({
      code: z.string().describe('The ResumeError / TrustError code, or the gateway’s own'),
      message: z.string(),
      tool_call_id: z.string().optional(),
    }),
  })
  .register(gatewaySchemas, { id: 'Error' });

export const healthSchema = z
  .object({ ok: z.boolean(), reason: z.string().optional() })
  .register(gatewaySchemas, { id: 'Health' });
