import { types } from 'node:util';
import { InterludeError } from '../errors/interlude-error.js';
import { copyErrorGraph } from './copy-error-graph.js';
import { MAX_OBJECTS_READ, readErrorGraph } from './read-error-graph.js';
import type { Scrubber } from './scrub.js';

const marker = Symbol.for('interlude.error.scrubbed');

/**
 * Stands in for an error that cannot be copied faithfully without its secret: its class prints one
 * (`toString`, a getter, a custom `util.inspect`) or a getter of its threw. Keeps the scrubbed
 * message, the original error's name (`originalName`) and every field the copy could scrub;
 * `dropped` says what it left out.
 */
export class ScrubbedError extends InterludeError {
  readonly [marker] = true;
  readonly originalName: string;
  /** What of the original error is not in this one, and why (`toString()`, `detail (a getter of its class)`). */
  readonly dropped: readonly string[];

  constructor(message: string, originalName: string, dropped: readonly string[] = []) {
    super('scrubbed_error', message);
    this.name = 'ScrubbedError';
    this.originalName = originalName;
    this.dropped = dropped;
  }

  static override isInstance(error: unknown): error is ScrubbedError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}

/**
 * Returns an error safe to show: the error itself when it holds no secret; else a copy (same
 * prototype and fields, every secret replaced) of it, its causes, its `AggregateError#errors`,
 * its `Map`s and `Set`s and whatever else it carries, at any depth (`read-error-graph.ts`); each
 * error in there that still shows a secret through its class becomes a `ScrubbedError` in place.
 * If even that shows one, a `ScrubbedError` with the scrubbed message alone.
 */
export function scrubError(error: unknown, scrubber: Scrubber): Error {
  const asError = error instanceof Error || types.isNativeError(error) ? (error as Error) : new Error(String(error));
  if (scrubber.isEmpty) return asError;
  const reading = readErrorGraph(asError, scrubber);
  if (reading.complete && reading.holding.size === 0) return asError;
  if (!reading.complete) return bareScrubbed(asError, scrubber, `what lies past the first ${MAX_OBJECTS_READ} objects`);
  const copy = copyErrorGraph(asError, reading, scrubber);
  const check = readErrorGraph(copy.value, scrubber);
  let converted = false;
  for (const [copied, { original, dropped }] of copy.errors) {
    const shown = check.reasons.get(copied) ?? [];
    if (shown.length === 0 && dropped.length === 0) continue;
    becomeScrubbedError(copied, scrubber.text(String(original.name)), [...dropped, ...shown]);
    converted = true;
  }
  const final = converted ? readErrorGraph(copy.value, scrubber) : check;
  if (!final.complete || final.holding.size > 0) return bareScrubbed(asError, scrubber, 'every field');
  return copy.value as Error;
}

function bareScrubbed(error: Error, scrubber: Scrubber, dropped: string): ScrubbedError {
  let message = '';
  try {
    message = scrubber.text(String(error.message));
  } catch {}
  return new ScrubbedError(message, scrubber.text(String(error.name)), [dropped]);
}

/** Turns a copy the scrubber made into a `ScrubbedError`, keeping its (scrubbed) fields and every reference to it. */
function becomeScrubbedError(copy: Error, originalName: string, dropped: readonly string[]): void {
  Object.setPrototypeOf(copy, ScrubbedError.prototype);
  const fields = {
    name: 'ScrubbedError',
    code: 'scrubbed_error',
    originalName,
    dropped,
    [marker]: true,
    [Symbol.for('interlude.error')]: true,
  };
  for (const key of Reflect.ownKeys(fields)) {
    Reflect.defineProperty(copy, key, {
      value: (fields as Record<string | symbol, unknown>)[key],
      enumerable: true,
      writable: false,
      configurable: true,
    });
  }
}
