import type { ConnectionOptions } from '@nats-io/transport-node';

/** The nats.js connection options `natsBus` passes through: who the bus is, and how it talks TLS. */
export type NatsAuthOptions = Pick<ConnectionOptions, 'user' | 'pass' | 'token' | 'authenticator' | 'tls'>;

/**
 * Servers without credentials, and the credentials their URLs carried: `nats://user:pass@host`
 * gives user and password, `nats://token@host` a token (nats.js reads neither from a URL). Options
 * given explicitly win over the URL's.
 */
export function splitServerCredentials(servers: string | string[]): {
  servers: string[];
  credentials: Pick<ConnectionOptions, 'user' | 'pass' | 'token'>;
} {
  const credentials: Pick<ConnectionOptions, 'user' | 'pass' | 'token'> = {};
  const bare = [servers].flat().map((server) => {
    const match = /^([a-z]+:\/\/)([^@/]*)@(.*)$/i.exec(server);
    if (match === null) return server;
    const [, scheme, userInfo, rest] = match as unknown as [string, string, string, string];
    const colon = userInfo.indexOf(':');
    if (colon < 0) credentials.token ??= decodeURIComponent(userInfo);
    else {
      credentials.user ??= decodeURIComponent(userInfo.slice(0, colon));
      credentials.pass ??= decodeURIComponent(userInfo.slice(colon + 1));
    }
    return `${scheme}${rest}`;
  });
  return { servers: bare, credentials };
}

/** A server's address as it may be shown in a message or a log: without credentials. */
export function withoutCredentials(server: string): string {
  return server.replace(/^([a-z]+:\/\/)[^@/]*@/i, '$1');
}
