import { createHash, timingSafeEqual } from 'node:crypto';

/** What a key may do: read (pending, generations, events), answer, cancel. */
export type GatewayScope = 'read' | 'answer' | 'cancel';

export const GATEWAY_SCOPES: readonly GatewayScope[] = ['read', 'answer', 'cancel'];

/** One API key: a name (for logs and the rate limit, never the secret), its scopes and its secret. */
export interface GatewayKey {
  name: string;
  scopes: readonly GatewayScope[];
  secret: string;
}

/** The shortest secret accepted: a shorter one is guessed. */
export const MIN_SECRET_LENGTH = 16;

/**
 * Reads `INTERLUDE_GATEWAY_KEYS`: entries separated by commas or whitespace, each
 * `name:scopes:secret`, the scopes joined by `+` (`read+answer`) or `*` for all three. The secret
 * comes last so it may hold colons. Throws a `TypeError` naming every bad entry by position and
 * name, never by secret.
 *
 * @example parseGatewayKeys('desk:read+answer:9c1f…,ops:*:77ab…')
 */
export function parseGatewayKeys(value: string): GatewayKey[] {
  const problems: string[] = [];
  const keys: GatewayKey[] = [];
  const entries = value.split(/[\s,]+/).filter((entry) => entry !== '');
  for (const [index, entry] of entries.entries()) {
    const [name = '', scopeList = '', ...rest] = entry.split(':');
    const secret = rest.join(':');
    const at = `entry ${index + 1}${/^[A-Za-z0-9_-]+$/.test(name) ? ` (${name})` : ''}`;
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(name)) problems.push(`${at}: a name of letters, digits, - or _ comes first`);
    const scopes = scopeList === '*' ? [...GATEWAY_SCOPES] : scopeList.split('+');
    const unknown = scopes.filter((scope) => !(GATEWAY_SCOPES as readonly string[]).includes(scope));
    if (unknown.length > 0 || scopes.length === 0) {
      problems.push(`${at}: scopes are ${GATEWAY_SCOPES.join(', ')} joined by + (or *)`);
    }
    if (secret.length < MIN_SECRET_LENGTH)
      problems.push(`${at}: the secret needs ${MIN_SECRET_LENGTH} characters or more`);
    if (keys.some((key) => key.name === name)) problems.push(`${at}: the name is used twice`);
    keys.push({ name, scopes: scopes as GatewayScope[], secret });
  }
  if (entries.length === 0) problems.push('no key given: name:scopes:secret, separated by commas');
  if (problems.length > 0) throw new TypeError(problems.join('; '));
  return keys;
}

/** The key whose secret was presented, compared in constant time; undefined for none. */
export function findGatewayKey(keys: readonly GatewayKey[], presented: string): GatewayKey | undefined {
  const digest = sha256(presented);
  let found: GatewayKey | undefined;
  // Every key is compared, so the time taken says nothing about which one matched.
  for (const key of keys) if (timingSafeEqual(sha256(key.secret), digest)) found = key;
  return found;
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
