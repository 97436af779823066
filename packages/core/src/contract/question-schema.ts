import { z } from 'zod';
import type { JsonValue } from '../input-request/input-request-json.js';

/** Any JSON value: what an answer, an option or a metadata entry may be. */
export const jsonValueSchema: z.ZodType<JsonValue> = z
  .lazy(() =>
    z.union([
      z.string(),
      z.number(),
      z.boolean(),
      z.null(),
      z.array(jsonValueSchema),
      z.record(z.string(), jsonValueSchema),
    ]),
  )
  .meta({ id: 'JsonValue' });

/** A choice's option: a value, or a value with the label a person reads. */
export const choiceOptionSchema = z.union([z.object({ value: jsonValueSchema, label: z.string() }), jsonValueSchema]);

/** One delegation on the way from the generation a person answers to the tool that asked. */
export const delegationStepSchema = z.object({
  tool_call_id: z.string(),
  tool_name: z.string(),
  agent: z.string(),
  action: z.string(),
});

/**
 * A question of a pause, as it leaves a process (events, checkpoints, the pending index, and
 * `toJSON()` of each request a paused response or `runtime.pending()` hands out): bound to the
 * call that asked, snake_case, unset fields left out.
 */
export const inputRequestSchema = z
  .object({
    kind: z.enum(['confirm', 'text', 'choice', 'secret']),
    prompt: z.string(),
    options: z
      .array(choiceOptionSchema)
      .exactOptional()
      .describe('The values a choice accepts; a choice has one or more.'),
    schema: z.record(z.string(), z.unknown()).exactOptional().describe('JSON Schema the answer must satisfy.'),
    metadata: z.record(z.string(), jsonValueSchema).exactOptional(),
    expires_at: z.string().exactOptional().describe('ISO time after which a person can no longer answer it.'),
    on_expiry: z
      .object({ answer: jsonValueSchema })
      .exactOptional()
      .describe('What it is answered with at `expires_at`; absent: declined.'),
    tool_call_id: z.string().describe('The call that asked: the key its answer goes under.'),
    tool_name: z.string().describe('The tool of the call that asked.'),
    arguments: z.unknown().exactOptional().describe('The arguments of the call that asked.'),
    path: z
      .array(delegationStepSchema)
      .exactOptional()
      .describe('On a question a delegated agent asked: the delegations that lead to it, outermost first.'),
  })
  .meta({ id: 'InputRequest' });
