import { InterludeError } from '@interlude/core';

const marker = Symbol.for('interlude.error.bus-unavailable');

/**
 * An operation could not reach what it needed (no server connected, or the stream it writes or
 * reads has no leader: its only replica is on a node that is down) within `unavailableAfterMs`.
 * It was not waited out: the caller decides whether to try again later. A write that failed this
 * way may still have been stored (its answer was what went missing); writes carry message ids,
 * so trying it again stores it once.
 */
export class BusUnavailableError extends InterludeError {
  readonly [marker] = true;
  declare readonly code: 'bus_unavailable';
  /** What was being done: `publish`, `checkpoints.save`, `jobs.enqueue`, … */
  readonly operation: string;

  constructor(operation: string, message: string, options?: { cause?: unknown }) {
    super('bus_unavailable', message, options);
    this.name = 'BusUnavailableError';
    this.operation = operation;
  }

  static override isInstance(error: unknown): error is BusUnavailableError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
