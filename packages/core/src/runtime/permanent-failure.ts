import { InterludeError } from '../errors/interlude-error.js';
import { ProviderError } from '../errors/provider-error.js';

/**
 * Codes of Interlude errors that say the bus was out of reach for a while (a server down, a
 * stream electing a leader), not that the job is wrong: another delivery can succeed. The bus
 * package's `BusUnavailableError` carries `bus_unavailable`.
 */
const OUTAGE_CODES: ReadonlySet<string> = new Set(['bus_unavailable']);

/**
 * Whether a failure would only repeat if the job ran again: a refusal or any other Interlude
 * error (a payload too large for the bus, a question a delegation could not ask), a malformed
 * job (`TypeError`), a provider error the provider says not to retry. Anything else (an outage,
 * `bus_unavailable` included, a retryable provider error, a bug that may be transient) is worth
 * another delivery: acknowledging a job that met an outage would leave its generation stuck,
 * with the outage keeping its `failed` event from being heard.
 */
export function isPermanentFailure(error: unknown): boolean {
  if (ProviderError.isInstance(error)) return !error.isRetryable;
  if (InterludeError.isInstance(error)) return !OUTAGE_CODES.has(error.code);
  return error instanceof TypeError;
}
