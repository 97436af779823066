import { InterludeError } from '../errors/interlude-error.js';
import { ProviderError } from '../errors/provider-error.js';

/**
 * Whether a failure would only repeat if the job ran again: a refusal or any other Interlude
 * error (a payload too large for the bus, a question a delegation could not ask), a malformed
 * job (`TypeError`), a provider error the provider says not to retry. Anything else (an outage,
 * a retryable provider error, a bug that may be transient) is worth another delivery.
 */
export function isPermanentFailure(error: unknown): boolean {
  if (ProviderError.isInstance(error)) return !error.isRetryable;
  return InterludeError.isInstance(error) || error instanceof TypeError;
}
