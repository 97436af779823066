import { z } from 'zod';
import { checkpointSchema } from './checkpoint-schema.js';
import { errorSchema } from './event-schemas.js';
import { inputRequestSchema } from './question-schema.js';
import { sealable } from './sealed-payload-schema.js';

/** A name or id a record cannot do without: never empty. */
const named = z.string().min(1);

/**
 * A background generate or resume, as carried on the work queue; a worker refuses a job this
 * does not take before anything else (`run-job.ts`).
 */
export const jobSchema = z
  .object({
    version: z.literal(1),
    id: named,
    kind: z.enum(['generate', 'resume']),
    agent: named,
    action: named,
    params: sealable(z.unknown()).exactOptional().describe("The action's params; absent for an action without."),
    generation_id: named,
    checkpoint: sealable(checkpointSchema).exactOptional().describe('What a resume job resumes.'),
    answers: sealable(z.record(z.string(), z.unknown()))
      .exactOptional()
      .describe('A resume job: the answers by `tool_call_id`.'),
    traceparent: z.string().exactOptional().describe('W3C trace context of whoever enqueued it.'),
    conversation_id: z
      .string()
      .exactOptional()
      .describe(
        'A generate job: the conversation (`gen_ai.conversation.id`) of the generation that enqueued it, if one did, which the new generation joins.',
      ),
    expiry: z.literal(true).exactOptional().describe("The resume a pause's deadline makes."),
    key_id: z.string().exactOptional().describe("The signing key's id: the first 8 hex digits of its SHA-256."),
    signature: z
      .string()
      .exactOptional()
      .describe(
        'base64url (43 characters) of HMAC-SHA256("interlude/job/v1\\n" + canonical JSON of every other field, `key_id` included, unsealed).',
      ),
  })
  .meta({ id: 'Job' });

/** One value of the checkpoint bucket, keyed by generation id. */
export const checkpointRecordSchema = z
  .object({
    version: z.literal(1),
    checkpoint: sealable(checkpointSchema),
    params: sealable(z.unknown()).exactOptional(),
  })
  .meta({ id: 'CheckpointRecord' });

/** The checkpoint bucket's key `interlude-deployment`: the deployment's id, the default audience of checkpoints. */
export const deploymentRecordSchema = z
  .object({ version: z.literal(1), deployment_id: z.string().min(1) })
  .meta({ id: 'DeploymentRecord' });

/** One paused generation, as the pending index keeps it, keyed by generation id. */
export const pendingRecordSchema = z
  .object({
    version: z.literal(1),
    generation_id: z.string(),
    agent: z.string(),
    action: z.string(),
    claim_slot: z.number().describe('The slot a resume claims: while it is free, the questions wait.'),
    input_requests: sealable(z.array(inputRequestSchema)),
    asked_at: z.string(),
    input_expires_at: z.string().exactOptional(),
    audience: z.string().exactOptional().describe('The deployment its checkpoint was signed for.'),
  })
  .meta({ id: 'PendingRecord' });

/** One write-once slot of a generation's claim log. */
export const claimRecordSchema = z
  .object({
    version: z.literal(1),
    kind: z.enum(['claim', 'takeover', 'tool_started', 'paused', 'finished', 'released']),
    generation_id: z
      .string()
      .exactOptional()
      .describe('The generation whose slot it was written in: a record read from another is skipped.'),
    slot: z.number().exactOptional().describe('The slot it was written in: a record read from another is skipped.'),
    holder: z.string().describe('Random per run (per delivery of a job).'),
    claimant: z.string().exactOptional().describe('The job that holds the run.'),
    epoch: z.number().describe('Fencing token: 1 for a claim, one more for each takeover of the same run.'),
    tool_call_id: z.string().exactOptional(),
    tool_name: z.string().exactOptional(),
    checkpoint: sealable(checkpointSchema).exactOptional().describe('`paused`: the checkpoint of the pause.'),
    error: sealable(errorSchema).exactOptional().describe('`finished` by a failure retrying cannot mend.'),
    time: z.string(),
    key_id: z
      .string()
      .exactOptional()
      .describe("The id of the key that signed it: the claimed checkpoint's (or job's) key, else the signing key."),
    signature: z
      .string()
      .exactOptional()
      .describe(
        'base64url (43 characters) of HMAC-SHA256("interlude/claim/v1\\n" + canonical JSON of every other field, unsealed). Readers skip a record that does not verify, or names another generation or slot: it holds no slot.',
      ),
  })
  .meta({ id: 'ClaimRecord' });

/** A pause's deadline, kept until due; a worker drops a timer this does not take (`malformed_timer`). */
export const inputTimerSchema = z
  .object({
    version: z.literal(1),
    generation_id: z.string(),
    agent: z.string(),
    action: z.string(),
    claim_slot: z.number().int().min(0),
    due_at: z.iso.datetime({ offset: true }),
    key_id: z.string().exactOptional().describe("The signing key's id: the first 8 hex digits of its SHA-256."),
    signature: z
      .string()
      .exactOptional()
      .describe(
        'base64url (43 characters) of HMAC-SHA256("interlude/timer/v1\\n" + canonical JSON of every other field, `key_id` included). A timer that does not verify is dropped, never met. Its message id is `<generation_id>:<claim_slot>:` and the first 16 characters of the signature.',
      ),
  })
  .meta({ id: 'InputTimer' });

/** A job that will never run, kept where operators can read it. */
export const deadLetterSchema = z
  .object({
    version: z.literal(1),
    queue: z.string(),
    reason: z.object({ code: z.string(), message: sealable(z.string()) }),
    job: jobSchema.exactOptional().describe('The job, when it could be read as one.'),
    raw: sealable(z.string()).exactOptional().describe('Its bytes as delivered (base64), when it could not.'),
    attempt: z.number(),
    time: z.string(),
  })
  .meta({ id: 'DeadLetter' });
