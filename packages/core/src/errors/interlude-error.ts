const marker = Symbol.for('interlude.error');

/**
 * Base class of every error Interlude throws. `code` is stable across releases, so callers
 * branch on it rather than on messages; `isInstance` works across copies of the package
 * (two installed versions, a bundled worker), where `instanceof` would not.
 */
export class InterludeError extends Error {
  readonly [marker] = true;
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'InterludeError';
    this.code = code;
  }

  static isInstance(error: unknown): error is InterludeError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
