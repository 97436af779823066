import { setTimeout as sleep } from 'node:timers/promises';

const TRANSIENT_ERROR_NAMES = new Set([
  'TimeoutError',
  'NoResponders',
  'RequestError',
  'ConnectionError',
  'JetStreamNotEnabled',
  'JetStreamStatusError',
]);

/**
 * Errors that mean "the server is away or not ready yet" (a timeout, no responders while
 * JetStream restarts, a dropped connection), as opposed to an answer from the server that
 * retrying would only repeat (a wrong revision, a bad config).
 */
export function isTransientNatsError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (TRANSIENT_ERROR_NAMES.has(error.name)) return true;
  const { status, code } = error as { status?: unknown; code?: unknown };
  // 10077 (a write-once subject already written) comes with status 503, but it is an answer.
  return error.name === 'JetStreamApiError' && status === 503 && code !== SUBJECT_FULL;
}

/** JetStream's answer to a write on a subject that already holds its one message. */
export const SUBJECT_FULL = 10077;

export interface RetryOptions {
  /** Stops retrying (and rethrows) once this says the bus is closed. */
  isClosed: () => boolean;
  /** First pause between attempts; doubles up to `maxDelayMs`. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /**
   * Stops retrying (and rethrows) once this long has passed since the first attempt: what a
   * caller's operation waits at most (`unavailableAfterMs`). Default: no bound.
   */
  giveUpAfterMs?: number;
  /**
   * Gives up on one attempt after this long and makes the next: a read sent to a stream leader
   * that was just killed is never answered, and waiting out the whole request timeout (5 s) could
   * leave one more attempt, or none, inside the caller's bound. Default: the request's own timeout.
   */
  attemptTimeoutMs?: number;
  /**
   * Once an attempt went unanswered (no leader: the stream is electing one), the next attempts are
   * sent at once, without the pause, and given up on after this long: the first one sent after the
   * new leader is up is answered within this of the election. Default: `attemptTimeoutMs`.
   */
  unansweredAttemptTimeoutMs?: number;
}

/**
 * A caller's single-request operations (a checkpoint load or save, a claim, a job enqueued, an
 * event published; not a log read, which may take longer than an attempt): each
 * attempt given up on after a second and the next made after at most 250 ms (at once, and given up
 * on after half a second, once one went unanswered), until `giveUpAfterMs`.
 * While a stream elects a new leader (4–5 s on nats-server 2.9.10, 3 nodes on loopback) nothing
 * answers; with whole request timeouts (5 s) the first attempt after the election could come 5 s
 * late, or after the caller's bound. Every one of them is safe to send again: reads, publishes
 * with a message id, KV puts, write-once claims.
 */
export function callerRetryOptions(retry: RetryOptions, giveUpAfterMs: number): RetryOptions {
  return { ...retry, giveUpAfterMs, attemptTimeoutMs: 1_000, unansweredAttemptTimeoutMs: 500, maxDelayMs: 250 };
}

/**
 * Runs `operation` until it succeeds, retrying transient NATS errors for as long as the bus is
 * open. Only safe for idempotent operations: a publish with a message id, a KV put, a
 * revision-checked update whose outcome is checked again by the caller.
 */
export async function retryTransient<T>(
  operation: (attemptTimeoutMs: number | undefined) => Promise<T>,
  options: RetryOptions,
): Promise<T> {
  let delay = options.initialDelayMs ?? 50;
  const maxDelay = options.maxDelayMs ?? 1_000;
  const giveUpAt = performance.now() + (options.giveUpAfterMs ?? Number.POSITIVE_INFINITY);
  let attemptTimeoutMs = options.attemptTimeoutMs;
  for (;;) {
    try {
      // The attempt's bound goes to the request too, which then forgets it when it is given up on
      // (`JetStreamRequests`): an abandoned attempt is not sent again after a reconnect, ahead of
      // the retry that replaces it, to a leader just elected.
      const attempt = operation(attemptTimeoutMs);
      return await (attemptTimeoutMs === undefined ? attempt : within(attempt, attemptTimeoutMs));
    } catch (error) {
      if (!isTransientNatsError(error) || options.isClosed() || performance.now() >= giveUpAt) throw error;
      if (attemptTimeoutMs !== undefined && (error as Error).name === 'TimeoutError') {
        // Unanswered: it waited its whole bound already, so the next goes at once, bounded shorter.
        attemptTimeoutMs = options.unansweredAttemptTimeoutMs ?? attemptTimeoutMs;
        continue;
      }
      await sleep(delay);
      delay = Math.min(delay * 2, maxDelay);
    }
  }
}

/** `attempt`, or a `TimeoutError` (transient: retried) if it has not settled after `ms`. */
async function within<T>(attempt: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  // An attempt given up on may still fail later, with no one to tell.
  attempt.catch(() => undefined);
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new Error(`no answer within ${ms} ms`);
      error.name = 'TimeoutError';
      reject(error);
    }, ms);
  });
  try {
    return await Promise.race([attempt, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
