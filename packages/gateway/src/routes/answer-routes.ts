import { ResumeError, type Runtime } from '@interlude/core';
import { authorizeAnswers, checkpointStanding, storedPause } from '@interlude/core/internal';
import type { Context, Hono } from 'hono';
import type { z } from 'zod';
import { requireScope } from '../credentials.js';
import type { GatewayEnv } from '../gateway-env.js';
import { GatewayError } from '../gateway-error.js';
import { answersRequestSchema, cancelRequestSchema } from '../wire-schemas.js';

/** How the gateway resumes what it is answered: through a worker (`queue`), unless an answer is a secret. */
export interface AnswerRouting {
  /** `queue` (default): a job for a worker on this queue; `in_process`: the gateway resumes every answer itself. */
  resume: 'queue' | 'in_process';
  queue: string;
}

/**
 * `POST /v1/generations/{id}/answers` and `…/cancel`. Answers are authorised by a key with the
 * answer scope or by an answer token for each call answered; then checked as a resume checks them
 * (the 400s), and resumed: a secret in this process (a job is stored on the bus, a secret never
 * is), anything else as a job for a worker. Nothing here logs or echoes an answer.
 */
export function addAnswerRoutes(app: Hono<GatewayEnv>, runtime: Runtime, routing: AnswerRouting): void {
  app.post('/v1/generations/:id/answers', async (c) => {
    const id = c.req.param('id');
    const credential = c.var.credential;
    requireScope(credential, 'answer');
    const body = await readBody(c, answersRequestSchema);
    const { answers } = body;
    if (credential.kind === 'tokens') {
      await authorizeAnswers(runtime, id, answers, [...credential.tokens, ...(body.answer_tokens ?? [])]);
    }
    // The pause as a resume reads it; without one, the resume below says why (not_found, expired…).
    const stored = (await storedPause(runtime, id)).verified;
    if (stored !== undefined) await refuseUnlessWaiting(runtime, stored.checkpoint);
    const secret = stored?.checkpoint.input_requests.some(
      (request) =>
        request.kind === 'secret' &&
        answers[request.tool_call_id ?? ''] !== undefined &&
        answers[request.tool_call_id ?? ''] !== false,
    );
    if (secret === true || routing.resume === 'in_process') {
      const status = await runtime.answer(id, answers).then(
        (response) => response.status,
        (error: unknown) => {
          // A refused resume is the caller's to fix; a run that failed is on the event log (scrubbed).
          if (ResumeError.isInstance(error)) throw error;
          return 'failed';
        },
      );
      return c.json({ generation_id: id, resumed: 'in_process', status }, 200);
    }
    // One job id per pause: an answer sent again while the first is queued (a replayed token, a
    // retried request) is not queued twice but refused `already_resumed`, by the queue's own dedup.
    const slot = stored?.checkpoint.claim_slot;
    const { jobId } = await runtime.answerLater(id, answers, {
      queue: routing.queue,
      ...(slot !== undefined && { jobId: `answer_${id}_${slot}` }),
    });
    return c.json({ generation_id: id, resumed: 'queued', job_id: jobId }, 202);
  });

  app.post('/v1/generations/:id/cancel', async (c) => {
    requireScope(c.var.credential, 'cancel');
    const id = c.req.param('id');
    const { reason } = await readBody(c, cancelRequestSchema, true);
    await runtime.cancel(id, reason ?? 'cancelled through the gateway');
    return c.json({ generation_id: id, cancelled: true }, 200);
  });
}

/** The body, parsed and checked; the messages never quote it (it may hold a secret answer). */
async function readBody<Schema extends z.ZodType>(
  c: Context<GatewayEnv>,
  schema: Schema,
  optional = false,
): Promise<z.infer<Schema>> {
  const text = await c.req.text();
  if (optional && text.trim() === '') return schema.parse({});
  const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    throw new GatewayError(400, 'invalid_request', 'Send the body as content-type: application/json');
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new GatewayError(400, 'invalid_request', 'The body is not JSON');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const where = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`);
    throw new GatewayError(400, 'invalid_request', `The body does not match: ${where.join('; ')}`);
  }
  return parsed.data;
}

/**
 * Refuses, before anything is queued, an answer its pause can no longer take: past its deadline
 * (`expired`), cancelled, or claimed by an earlier answer (`already_resumed`). A resume would refuse
 * it too, but a queued one only in the worker, long after this request was told 202.
 */
async function refuseUnlessWaiting(
  runtime: Runtime,
  checkpoint: Parameters<typeof checkpointStanding>[1],
): Promise<void> {
  const deadline = checkpoint.input_expires_at;
  if (deadline !== undefined && Date.parse(deadline) <= Date.now()) {
    throw new ResumeError('expired', `Generation ${checkpoint.generation_id} stopped waiting at ${deadline}`);
  }
  const standing = await checkpointStanding(runtime, checkpoint);
  if (standing === 'cancelled')
    throw new ResumeError('cancelled', `Generation ${checkpoint.generation_id} was cancelled`);
  if (standing === 'claimed') {
    throw new ResumeError('already_resumed', `Generation ${checkpoint.generation_id} was answered already`);
  }
}
