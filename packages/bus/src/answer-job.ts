import { InterludeError } from '@interlude/core';
import {
  type DeadLetter,
  type Job,
  type JobDelivery,
  type JobHandler,
  nestsDeeperThan,
  tooManyDeliveries,
} from '@interlude/core/internal';
import type { JsMsg } from '@nats-io/jetstream';
import { type Answer, acknowledgeJob, type Held, handBack } from './held-job.js';
import type { JetStreamRequests } from './jetstream-requests.js';
import { decodeJson } from './json-codec.js';
import type { RetryOptions } from './retry.js';
import type { createDeliveryCountFloor } from './server-2.9/delivery-count-floor.js';

export interface AnswerSettings {
  /** Deliveries a job gets: a handler that still fails on the last one dead-letters it. */
  maxDeliver: number;
  onError: (error: unknown, context: string) => void;
  retry: RetryOptions;
  /** The job as its handler sees it: its sealed parts opened (`PayloadCodecError` when they cannot be). */
  openJob?: (job: Job) => Job;
  /** Stores a refused job; `messageId` names the stored message, so a retried write lands once. */
  deadLetter: (letter: Omit<DeadLetter, 'queue' | 'version'>, messageId: string) => Promise<void>;
}

/**
 * Runs a job and answers it as its handler's verdict says: acknowledged (dead-lettered first
 * when refused), or left alone when its run was taken over by another delivery. A failed job is
 * handed back with a backoff, which it returns, until its last delivery, which dead-letters it.
 * A delivery that is not a job at all (not JSON) is dead-lettered as it came. A job whose sealed
 * parts this worker cannot open fails the same way (another worker may hold the key), and is
 * dead-lettered still sealed, with the codec's code. A job handed back at a stop's bound is
 * answered no more: another delivery has it now.
 */
export async function answerJob(
  held: Held,
  handler: JobHandler,
  requests: JetStreamRequests,
  settings: AnswerSettings,
  floor: ReturnType<typeof createDeliveryCountFloor>,
): Promise<Answer> {
  const { message, heartbeat, identity } = held;
  const attempt = floor.attemptOf(message, identity);
  const refuse = async (letter: Omit<DeadLetter, 'queue' | 'version' | 'attempt' | 'time'>) => {
    await settings.deadLetter({ ...letter, attempt, time: new Date().toISOString() }, identity);
    await acknowledgeJob(requests, message, settings.retry);
    floor.done(identity);
    return { acknowledged: true } as const;
  };
  let job: Job;
  try {
    job = decodeJson<Job>(message.data);
  } catch (error) {
    clearInterval(heartbeat);
    return refuse({
      reason: { code: 'invalid_job', message: `Not a JSON job: ${(error as Error).message}` },
      raw: Buffer.from(message.data).toString('base64'),
    });
  }
  let opened: Job | undefined;
  try {
    opened = settings.openJob?.(job) ?? job;
    const verdict = await handler(opened, deliveryOf(message, attempt, settings.maxDeliver));
    clearInterval(heartbeat);
    // Handed back at stop's bound: another delivery has it now, and any answer would be a lie.
    if (held.handedBack === true) return { acknowledged: false, handedBack: true };
    if (verdict?.verdict === 'abandon') return { acknowledged: false, abandoned: true };
    if (verdict?.verdict === 'refuse') return refuse({ reason: verdict.reason, ...kept(opened, message) });
    await acknowledgeJob(requests, message, settings.retry);
    floor.done(identity);
    return { acknowledged: true };
  } catch (error) {
    clearInterval(heartbeat);
    if (held.handedBack === true) return { acknowledged: false, handedBack: true };
    settings.onError(error, `job on ${message.subject} (delivery ${attempt})`);
    if (attempt >= settings.maxDeliver) {
      const reason = opened === undefined ? unopened(attempt, error) : tooManyDeliveries(attempt, error);
      return refuse({ reason, ...kept(opened ?? job, message) });
    }
    const backoffMs = Math.min(30_000, 250 * 2 ** (attempt - 1));
    floor.failed(identity, attempt);
    handBack(message, backoffMs);
    return { acknowledged: false, backoffMs };
  }
}

/** Why a job no delivery could open is refused: the codec's code (`unknown_payload_key`, …) and message. */
function unopened(attempt: number, error: unknown): DeadLetter['reason'] {
  const code = InterludeError.isInstance(error) ? error.code : 'invalid_job';
  return { code, message: `Delivered ${attempt} times, never opened: ${(error as Error).message}` };
}

/** What a dead letter keeps of a job: the job, or its bytes when it nests too deep to serialise again. */
function kept(job: Job, message: JsMsg): { job: Job } | { raw: string } {
  return nestsDeeperThan(job) ? { raw: Buffer.from(message.data).toString('base64') } : { job };
}

function deliveryOf(message: JsMsg, attempt: number, maxAttempts: number): JobDelivery {
  const headers: Record<string, string> = {};
  for (const name of message.headers?.keys() ?? []) {
    const value = message.headers?.get(name);
    if (value !== undefined) headers[name] = value;
  }
  return { attempt, headers, maxAttempts };
}
