import { ResumeError } from '@interlude/core';
import { ProviderError } from '@interlude/core/provider';

/**
 * The error a promise rejects with, as the error class the test expects: a promise that resolves,
 * or rejects with anything else, fails the test with what it got instead. Tests then read typed
 * fields (`error.type`, `error.code`) without casts.
 */
async function rejectedWith<T>(
  promise: Promise<unknown>,
  isExpected: (error: unknown) => error is T,
  expected: string,
): Promise<T> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isExpected(error)) throw new Error(`expected a ${expected}, got ${String(error)}`);
  return error;
}

/** The `ProviderError` a call or generation must fail with. */
export function rejectedProviderError(promise: Promise<unknown>): Promise<ProviderError> {
  return rejectedWith(promise, (error) => ProviderError.isInstance(error), 'ProviderError');
}

/** The `ResumeError` a resume must be refused with. */
export function rejectedResumeError(promise: Promise<unknown>): Promise<ResumeError> {
  return rejectedWith(promise, (error) => ResumeError.isInstance(error), 'ResumeError');
}
