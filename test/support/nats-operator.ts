import { readFile } from 'node:fs/promises';
import {
  type Account,
  createAccount,
  createOperator,
  createUser,
  encodeAccount,
  encodeOperator,
  encodeUser,
  fmtCreds,
  type Permissions,
} from '@nats-io/jwt';

/**
 * What `nsc` would make for an operator-mode (decentralised JWT) nats-server, minted in the test:
 * an operator, its system account, an application account with JetStream, and a way to sign
 * users of that account. `configuration(storeDir)` is the server's configuration (operator JWT,
 * `system_account`, `resolver: MEMORY` with both accounts preloaded, JetStream on; the store
 * directory comes from startConfiguredNats's `-sd` flag, which a `store_dir` here would duplicate).
 */
export interface OperatorMode {
  configuration: string;
  /** The text of a creds file (user JWT and nkey seed) for a user of the application account. */
  userCreds(name: string, permissions?: Permissions): Promise<string>;
}

/** An account with no limit on connections, subscriptions, payloads or JetStream use. */
const UNLIMITED: Partial<Account> = {
  limits: {
    subs: -1,
    data: -1,
    payload: -1,
    imports: -1,
    exports: -1,
    wildcards: true,
    conn: -1,
    leaf: -1,
    mem_storage: -1,
    disk_storage: -1,
    streams: -1,
    consumer: -1,
  },
};

export async function mintOperatorMode(operatorName = 'interlude-test'): Promise<OperatorMode> {
  const operator = createOperator();
  const system = createAccount();
  const application = createAccount();
  const operatorJwt = await encodeOperator(operatorName, operator, { system_account: system.getPublicKey() });
  const systemJwt = await encodeAccount('SYS', system, {}, { signer: operator });
  const applicationJwt = await encodeAccount('INTERLUDE', application, UNLIMITED, { signer: operator });
  return {
    configuration: `operator: ${operatorJwt}
system_account: ${system.getPublicKey()}
resolver: MEMORY
resolver_preload: {
  ${system.getPublicKey()}: ${systemJwt}
  ${application.getPublicKey()}: ${applicationJwt}
}
jetstream: enabled
`,
    async userCreds(name, permissions = {}) {
      const user = createUser();
      const jwt = await encodeUser(name, user, application, permissions);
      return new TextDecoder().decode(fmtCreds(jwt, user));
    },
  };
}

/**
 * The publish and subscribe allow-lists of one role (`INTERLUDE_APPLICATION`, `INTERLUDE_WORKER`)
 * in packages/bus/nats/interlude-roles.conf, as user JWT permissions.
 */
export async function rolePermissions(role: string): Promise<Permissions> {
  const roles = await readFile(new URL('../../packages/bus/nats/interlude-roles.conf', import.meta.url), 'utf8');
  const block = new RegExp(`\\n  ${role} = \\{\\n([\\s\\S]*?)\\n  \\}\\n`).exec(roles)?.[1];
  if (block === undefined) throw new Error(`interlude-roles.conf defines no ${role}`);
  const allowed = (section: 'publish' | 'subscribe') => {
    const list = new RegExp(`${section} = \\{\\s*allow = \\[([^\\]]*)\\]`).exec(block)?.[1] ?? '';
    return [...list.replace(/#.*$/gm, '').matchAll(/"([^"]+)"/g)].map((match) => match[1] as string);
  };
  return { pub: { allow: allowed('publish') }, sub: { allow: allowed('subscribe') } };
}
