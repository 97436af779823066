import { InterludeError } from '@interlude/core';

const marker = Symbol.for('interlude.error.bus-connection');

/** Why `natsBus` gave up connecting instead of trying again. Stable: callers switch on these. */
export type BusConnectionErrorCode =
  /** The server refused the credentials (user/password, token, nkey, creds), or asked for some. */
  | 'authorization_failed'
  /** The TLS handshake failed: an untrusted server certificate, or a client certificate missing or refused. */
  | 'tls_failed'
  /** The server is older than the bus supports, or has JetStream turned off. */
  | 'unsupported_server';

/**
 * The NATS server said no, and asking again would only repeat it: wrong or missing credentials,
 * or a TLS setup that does not match the server's. `natsBus` reports it to every call at once,
 * rather than retrying forever as it does while a server is merely unreachable.
 */
export class BusConnectionError extends InterludeError {
  readonly [marker] = true;
  declare readonly code: BusConnectionErrorCode;
  /** The server the bus was trying, without credentials. */
  readonly server: string;

  constructor(code: BusConnectionErrorCode, server: string, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'BusConnectionError';
    this.server = server;
  }

  static override isInstance(error: unknown): error is BusConnectionError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
