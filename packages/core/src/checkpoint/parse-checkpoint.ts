import { z } from 'zod';
import { ResumeError } from '../errors/resume-error.js';
import { CHECKPOINT_VERSION, type Checkpoint } from './checkpoint.js';

const inputRequestShape = z
  .looseObject({
    kind: z.enum(['confirm', 'text', 'choice', 'secret']),
    prompt: z.string(),
    tool_call_id: z.string(),
    options: z.array(z.unknown()).min(1).optional(),
    schema: z.record(z.string(), z.unknown()).optional(),
  })
  .refine((request) => request.kind !== 'choice' || request.options !== undefined, {
    message: 'a choice request needs its options',
  });

const checkpointShape = z.object({
  version: z.number(),
  service: z.string(),
  provider: z.string(),
  model: z.string(),
  action_name: z.string(),
  tool_turns: z.number().int().nonnegative(),
  tool_choice_cleared: z.boolean(),
  messages: z.array(z.unknown()),
  tool_call_turn_size: z.number().int(),
  completed_results: z.record(
    z.string(),
    z.object({ tool_name: z.string(), result: z.unknown(), is_error: z.boolean() }),
  ),
  input_requests: z.array(inputRequestShape),
  approval_tool_calls: z.array(z.string()),
  approved_tool_calls: z.array(z.string()),
  mcp_tool_calls: z.array(z.string()),
  agent: z.string(),
  generation_id: z.string().min(1),
  traceparent: z.string().optional(),
  signature: z.string().optional(),
});

/**
 * Checks that a value is a checkpoint object of a version this release reads, before anything
 * else, so a newer format gets `unsupported_version` rather than a shape error.
 */
export function assertCheckpointVersion(value: unknown): asserts value is Checkpoint {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ResumeError('invalid_checkpoint', 'A checkpoint must be a JSON object');
  }
  const version = (value as { version?: unknown }).version;
  if (version !== CHECKPOINT_VERSION) {
    throw new ResumeError(
      'unsupported_version',
      `Checkpoint version ${JSON.stringify(version)} is not supported (this release reads version ${CHECKPOINT_VERSION})`,
    );
  }
}

/** Checks every field's type (after the version and, when a key is set, the signature). */
export function parseCheckpoint(value: unknown): Checkpoint {
  assertCheckpointVersion(value);
  const parsed = checkpointShape.safeParse(value);
  if (!parsed.success) {
    throw new ResumeError('invalid_checkpoint', `The checkpoint is malformed: ${z.prettifyError(parsed.error)}`);
  }
  return value as Checkpoint;
}
