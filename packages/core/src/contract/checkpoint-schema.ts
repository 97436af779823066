import { z } from 'zod';
import { checkpointShape } from '../checkpoint/checkpoint-shape.js';
import { inputRequestSchema } from './question-schema.js';

/**
 * A checkpoint as written: the shape `parseCheckpoint` checks (`checkpointShape`), narrowed to
 * what this release writes (version 3, its questions in full, its delegations' checkpoints).
 */
export const checkpointSchema = checkpointShape
  .extend({
    version: z.literal(3),
    tool_choice_cleared: z.boolean().exactOptional().describe('Left out when false.'),
    tool_call_turn_size: z.number().int().exactOptional().describe('Left out when 1.'),
    input_requests: z.array(inputRequestSchema),
    get delegations() {
      return z
        .record(z.string(), checkpointSchema)
        .optional()
        .describe("Paused delegations' own checkpoints, by the delegating call's id.");
    },
    key_id: z.string().exactOptional().describe("The signing key's id: the first 8 hex digits of its SHA-256."),
    signature: z
      .string()
      .exactOptional()
      .describe(
        'base64url (43 characters) of HMAC-SHA256("interlude/checkpoint/v2\\n" + canonical JSON of the checkpoint without `signature` + "\\n" + canonical JSON of the params).',
      ),
  })
  .meta({ id: 'Checkpoint' });
