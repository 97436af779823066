import { InterludeError } from './interlude-error.js';

const marker = Symbol.for('interlude.error.provider');

export interface ProviderErrorOptions {
  message: string;
  provider: string;
  /** HTTP status, when the failure came from an HTTP answer. */
  status?: number | undefined;
  /** The provider's own error type (`overloaded_error`, `rate_limit_exceeded`, …). */
  type?: string | undefined;
  isRetryable: boolean;
  cause?: unknown;
}

/**
 * A model call failed. Adapters map their SDK's errors to this one class so the generation
 * loop, telemetry and users see one shape whatever the provider.
 */
export class ProviderError extends InterludeError {
  readonly [marker] = true;
  readonly provider: string;
  readonly status: number | undefined;
  readonly type: string | undefined;
  readonly isRetryable: boolean;

  constructor(options: ProviderErrorOptions) {
    super('provider_error', options.message, { cause: options.cause });
    this.name = 'ProviderError';
    this.provider = options.provider;
    this.status = options.status;
    this.type = options.type;
    this.isRetryable = options.isRetryable;
  }

  static override isInstance(error: unknown): error is ProviderError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
