import { GatewayError } from './gateway-error.js';
import { findGatewayKey, type GatewayKey, type GatewayScope } from './gateway-keys.js';

/** Who is asking: an API key, or answer tokens (which can answer their own questions and do nothing else). */
export type Credential = { kind: 'key'; key: GatewayKey } | { kind: 'tokens'; tokens: string[] };

/** An answer token's shape: `<payload>.<key id>.<signature>`, all URL-safe (core checks the rest). */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]+\.[0-9a-f]{8}\.[A-Za-z0-9_-]{16,}$/;

/**
 * Reads `Authorization: Bearer <API key or answer token>`. Missing: 401 `missing_credential`; a
 * value that is neither a configured key nor shaped like a token: 401 `invalid_credential` (a
 * token's signature is checked where it is used, with the answers it authorises).
 */
export function readCredential(header: string | undefined, keys: readonly GatewayKey[]): Credential {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (match === null) {
    throw new GatewayError(401, 'missing_credential', 'Send Authorization: Bearer <API key or answer token>', {
      'www-authenticate': 'Bearer',
    });
  }
  const presented = match[1] as string;
  const key = findGatewayKey(keys, presented);
  if (key !== undefined) return { kind: 'key', key };
  if (TOKEN_SHAPE.test(presented)) return { kind: 'tokens', tokens: [presented] };
  throw new GatewayError(401, 'invalid_credential', 'The credential is not a key of this gateway', {
    'www-authenticate': 'Bearer error="invalid_token"',
  });
}

/** Refuses (403 `insufficient_scope`) a credential that may not do `scope`; answer tokens do nothing but answer. */
export function requireScope(credential: Credential, scope: GatewayScope): void {
  if (credential.kind === 'key' ? credential.key.scopes.includes(scope) : scope === 'answer') return;
  const who = credential.kind === 'key' ? `Key ${credential.key.name}` : 'An answer token';
  throw new GatewayError(403, 'insufficient_scope', `${who} does not have the ${scope} scope`);
}

/** The rate limit's bucket of a credential: the key's name, or the token itself. */
export function rateBucketOf(credential: Credential): string {
  return credential.kind === 'key' ? `key:${credential.key.name}` : `token:${credential.tokens[0] ?? ''}`;
}
