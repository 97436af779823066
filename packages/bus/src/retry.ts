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
}

/**
 * Runs `operation` until it succeeds, retrying transient NATS errors for as long as the bus is
 * open. Only safe for idempotent operations: a publish with a message id, a KV put, a
 * revision-checked update whose outcome is checked again by the caller.
 */
export async function retryTransient<T>(operation: () => Promise<T>, options: RetryOptions): Promise<T> {
  let delay = options.initialDelayMs ?? 50;
  const maxDelay = options.maxDelayMs ?? 1_000;
  const giveUpAt = performance.now() + (options.giveUpAfterMs ?? Number.POSITIVE_INFINITY);
  for (;;) {
    try {
      return await operation();
    } catch (error) {
      if (!isTransientNatsError(error) || options.isClosed() || performance.now() >= giveUpAt) throw error;
      await sleep(delay);
      delay = Math.min(delay * 2, maxDelay);
    }
  }
}
