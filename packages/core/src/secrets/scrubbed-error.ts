import { InterludeError } from '../errors/interlude-error.js';
import type { Scrubber } from './scrub.js';

const marker = Symbol.for('interlude.error.scrubbed');

/**
 * Stands in for an error that still carried a secret after copying it with the secret replaced
 * (a secret held in a getter, a class field the copy could not reach). Keeps the scrubbed message
 * and the original error's name.
 */
export class ScrubbedError extends InterludeError {
  readonly [marker] = true;
  readonly originalName: string;

  constructor(message: string, originalName: string) {
    super('scrubbed_error', message);
    this.name = 'ScrubbedError';
    this.originalName = originalName;
  }

  static override isInstance(error: unknown): error is ScrubbedError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}

/**
 * Returns an error safe to show: the error itself when it holds no secret, else a copy of it (same
 * prototype, scrubbed message, stack, fields and causes), else a `ScrubbedError`.
 */
export function scrubError(error: unknown, scrubber: Scrubber): Error {
  const asError = error instanceof Error ? error : new Error(String(error));
  if (scrubber.isEmpty || !leaks(asError, scrubber)) return asError;
  const copy = copyError(asError, scrubber, 0);
  if (!leaks(copy, scrubber)) return copy;
  return new ScrubbedError(scrubber.text(asError.message), asError.name);
}

function copyError(error: Error, scrubber: Scrubber, depth: number): Error {
  const copy = Object.create(Object.getPrototypeOf(error)) as Error & Record<string, unknown>;
  for (const key of Object.getOwnPropertyNames(error)) {
    const value = (error as unknown as Record<string, unknown>)[key];
    let scrubbed: unknown;
    if (key === 'cause' && value instanceof Error && depth < 5) scrubbed = copyError(value, scrubber, depth + 1);
    else if (typeof value === 'string') scrubbed = scrubber.text(value);
    else scrubbed = scrubber.value(value);
    Object.defineProperty(copy, key, {
      value: scrubbed,
      writable: true,
      configurable: true,
      enumerable: key !== 'stack' && key !== 'message',
    });
  }
  for (const symbol of Object.getOwnPropertySymbols(error)) {
    copy[symbol as unknown as string] = (error as unknown as Record<symbol, unknown>)[symbol];
  }
  return copy;
}

function leaks(error: Error, scrubber: Scrubber, depth = 0): boolean {
  if (scrubber.contains(error.message) || scrubber.contains(error.stack ?? '')) return true;
  if (scrubber.contains(writtenForm(error))) return true;
  for (const key of Object.keys(error)) {
    const value = (error as unknown as Record<string, unknown>)[key];
    if (value instanceof Error) {
      if (depth < 5 && leaks(value, scrubber, depth + 1)) return true;
    } else if (scrubber.contains(value)) return true;
  }
  const cause = error.cause;
  if (cause instanceof Error && depth < 5) return leaks(cause, scrubber, depth + 1);
  return cause !== undefined && scrubber.contains(cause);
}

/** How the error prints: its class may write fields (getters, `toString`) the copy cannot scrub. */
function writtenForm(error: Error): string {
  try {
    return String(error);
  } catch {
    return '';
  }
}
