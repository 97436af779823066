import { InterludeError } from './interlude-error.js';

const marker = Symbol.for('interlude.error.payload_too_large');

/**
 * Something the bus was asked to carry is bigger than it can (NATS: the server's
 * `max_payload`, 1 MB by default): a tool result, a question, a checkpoint, a job. Retrying can
 * only fail the same way, so a generation that meets it ends `failed` with this code, once,
 * instead of being run again; the message says what and how big.
 */
export class PayloadTooLargeError extends InterludeError {
  readonly [marker] = true;
  /** Bytes the payload needed. */
  readonly size: number;
  /** Bytes the bus carries at most. */
  readonly limit: number;

  constructor(what: string, size: number, limit: number) {
    super('payload_too_large', `${what} needs ${size} bytes; the bus carries at most ${limit}`);
    this.name = 'PayloadTooLargeError';
    this.size = size;
    this.limit = limit;
  }

  static override isInstance(error: unknown): error is PayloadTooLargeError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
