import { readFileSync } from 'node:fs';
import { credsAuthenticator, nkeyAuthenticator, type TlsOptions } from '@nats-io/transport-node';
import { type NatsAuthOptions, withoutCredentials } from '../nats-connection-options.js';
import type { SettingsReader } from './environment-values.js';

/** The variables the bin reads to reach NATS, in the order `--help` lists them. */
export const NATS_VARIABLES = {
  servers: 'NATS_URL',
  user: 'INTERLUDE_NATS_USER',
  password: 'INTERLUDE_NATS_PASSWORD',
  token: 'INTERLUDE_NATS_TOKEN',
  creds: 'INTERLUDE_NATS_CREDS',
  nkey: 'INTERLUDE_NATS_NKEY',
  tlsCa: 'INTERLUDE_NATS_TLS_CA',
  tlsCert: 'INTERLUDE_NATS_TLS_CERT',
  tlsKey: 'INTERLUDE_NATS_TLS_KEY',
} as const;

/** Where the worker connects and who it is: `natsBus` options. */
export interface NatsSettings extends NatsAuthOptions {
  servers: string[];
}

/**
 * `NATS_URL` (one URL, or several of one cluster separated by commas, as the `nats` CLI takes
 * them) and at most one way to authenticate: user and password, a token, a creds file, or an
 * nkey seed file. Secrets in files are read again at each connect, so a rotated creds file is
 * picked up on the next reconnect. Any TLS variable turns TLS on; a client certificate needs its key.
 */
export function readNatsSettings(reader: SettingsReader): NatsSettings {
  const servers = readServers(reader);
  return { servers, ...readAuthentication(reader), ...readTls(reader) };
}

function readServers(reader: SettingsReader): string[] {
  const value = reader.text(NATS_VARIABLES.servers);
  if (value === undefined) {
    reader.problem(NATS_VARIABLES.servers, 'required: the NATS server URL, or several separated by commas');
    return [];
  }
  const servers = value
    .split(',')
    .map((server) => server.trim())
    .filter((server) => server !== '');
  for (const server of servers) {
    const problem = serverProblem(server);
    if (problem !== undefined) {
      reader.problem(NATS_VARIABLES.servers, `${JSON.stringify(withoutCredentials(server))} ${problem}`);
    }
  }
  return servers;
}

/** What is wrong with one server address, or undefined: `nats://`, `tls://` or a bare `host:port`. */
function serverProblem(server: string): string | undefined {
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(server) ? server : `nats://${server}`);
  } catch {
    return 'is not a URL (nats://host:4222)';
  }
  if (url.protocol !== 'nats:' && url.protocol !== 'tls:') return 'must start with nats:// or tls://';
  if (url.hostname === '') return 'names no host';
  return undefined;
}

function readAuthentication(reader: SettingsReader): Partial<NatsAuthOptions> {
  const user = reader.text(NATS_VARIABLES.user);
  const password = reader.text(NATS_VARIABLES.password);
  const token = reader.text(NATS_VARIABLES.token);
  const creds = reader.fileText(NATS_VARIABLES.creds);
  const nkey = reader.fileText(NATS_VARIABLES.nkey);
  const ways = [
    (user !== undefined || password !== undefined) && `${NATS_VARIABLES.user}/${NATS_VARIABLES.password}`,
    token !== undefined && NATS_VARIABLES.token,
    creds !== undefined && NATS_VARIABLES.creds,
    nkey !== undefined && NATS_VARIABLES.nkey,
  ].filter((way): way is string => way !== false);
  if (ways.length > 1) {
    reader.problem(ways.join(', '), 'give one way to authenticate, not several');
    return {};
  }
  if ((user === undefined) !== (password === undefined)) {
    reader.problem(
      user === undefined ? NATS_VARIABLES.user : NATS_VARIABLES.password,
      'needs its pair: set both or neither',
    );
    return {};
  }
  if (user !== undefined && password !== undefined) return { user, pass: password };
  if (token !== undefined) return { token };
  if (creds !== undefined) {
    if (!/-----BEGIN NATS USER JWT-----/.test(creds.text) || !/-----BEGIN USER NKEY SEED-----/.test(creds.text)) {
      reader.problem(NATS_VARIABLES.creds, `${creds.path} is not a creds file (a user JWT and an nkey seed)`);
      return {};
    }
    return { authenticator: credsAuthenticator(() => readFileSync(creds.path)) };
  }
  if (nkey !== undefined) {
    if (!/^SU[A-Z2-7]{56}$/.test(nkey.text.trim())) {
      reader.problem(NATS_VARIABLES.nkey, `${nkey.path} does not hold a user nkey seed (SU…, 58 characters)`);
      return {};
    }
    return { authenticator: nkeyAuthenticator(() => new TextEncoder().encode(readFileSync(nkey.path, 'utf8').trim())) };
  }
  return {};
}

function readTls(reader: SettingsReader): Partial<NatsAuthOptions> {
  const caFile = reader.readableFile(NATS_VARIABLES.tlsCa);
  const certFile = reader.readableFile(NATS_VARIABLES.tlsCert);
  const keyFile = reader.readableFile(NATS_VARIABLES.tlsKey);
  const certSet = reader.text(NATS_VARIABLES.tlsCert) !== undefined;
  const keySet = reader.text(NATS_VARIABLES.tlsKey) !== undefined;
  if (certSet !== keySet) {
    reader.problem(
      certSet ? NATS_VARIABLES.tlsKey : NATS_VARIABLES.tlsCert,
      'a client certificate needs its key: set both or neither',
    );
  }
  if (caFile === undefined && certFile === undefined && keyFile === undefined) return {};
  const tls: TlsOptions = {
    ...(caFile !== undefined && { caFile }),
    ...(certFile !== undefined && { certFile }),
    ...(keyFile !== undefined && { keyFile }),
  };
  return { tls };
}
