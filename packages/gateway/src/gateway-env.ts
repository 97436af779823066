import type { Credential } from './credentials.js';

/** What the gateway's middleware hands its routes. */
export interface GatewayEnv {
  Variables: { credential: Credential };
}
